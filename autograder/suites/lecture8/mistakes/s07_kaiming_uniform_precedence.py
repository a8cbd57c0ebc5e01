"""kaiming_uniform with bound 6 / np.sqrt(fan_in) (the square root over fan_in only, instead of
sqrt(6 / fan_in)): one mistake, so the bound test and both std tests must name the same formula."""
NOTEBOOK = "07_init_variance"
CELLS = {
    "task7_2_kaiming_uniform": '''
def kaiming_uniform(fan_in, fan_out):
    bound = 6 / np.sqrt(fan_in)
    return ndl.Tensor(np.random.uniform(-bound, bound, (fan_in, fan_out)), dtype="float32", requires_grad=False)
''',
}
MUST_FAIL = ['test_7_2_rung7_a_relu_layer_s_factor_on_e_x_2_is_1', 'test_uniform_factor']
HINT = "Task 7.2, rung 7 (a ReLU layer's factor on E[x^2] is 1)"
VISIBLE = True
