"""kaiming_normal with std 2 / fan_in ** 0.5: ** binds tighter than /, so the root is of fan_in
alone (std 2 / sqrt(fan_in), variance 4 / fan_in)."""
NOTEBOOK = "07_init_variance"
CELLS = {
    "task7_1_kaiming_normal": '''
def kaiming_normal(fan_in, fan_out):
    std = 2 / fan_in ** 0.5
    return ndl.Tensor(np.random.randn(fan_in, fan_out) * std, dtype="float32", requires_grad=False)
''',
}
MUST_FAIL = ['test_7_1_rung7_a_relu_layer_s_factor_on_e_x_2_is_1', 'test_normal_factor']
HINT = "Task 7.1, rung 7 (a ReLU layer's factor on E[x^2] is 1)"
VISIBLE = True
