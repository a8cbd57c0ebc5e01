"""kaiming_normal with std sqrt(2) / fan_in: the square root taken of 2 only."""
NOTEBOOK = "07_init_variance"
CELLS = {
    "task7_1_kaiming_normal": '''
def kaiming_normal(fan_in, fan_out):
    return ndl.Tensor(np.random.randn(fan_in, fan_out) * np.sqrt(2) / fan_in, dtype="float32", requires_grad=False)
''',
}
MUST_FAIL = ['test_7_1_rung7_a_relu_layer_s_factor_on_e_x_2_is_1', 'test_normal_factor']
HINT = "Task 7.1, rung 7 (a ReLU layer's factor on E[x^2] is 1)"
VISIBLE = True
