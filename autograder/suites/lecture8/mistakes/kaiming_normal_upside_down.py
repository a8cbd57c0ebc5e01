"""kaiming_normal with the variance condition solved upside down: fan_in Var(W) / 2 = 1 read as Var(W) = fan_in / 2."""
NOTEBOOK = "07_init_variance"
CELLS = {
    "task7_1_kaiming_normal": '''
def kaiming_normal(fan_in, fan_out):
    return ndl.Tensor(np.random.randn(fan_in, fan_out) * np.sqrt(fan_in / 2), dtype="float32")
''',
}
MUST_FAIL = ['test_7_1_rung7_a_relu_layer_s_factor_on_e_x_2_is_1', 'test_normal_factor']
HINT = "Task 7.1, rung 7 (a ReLU layer's factor on E[x^2] is 1)"
VISIBLE = True
