"""kaiming_uniform with b^2 = Var(W) / 3: Var(U(-b, b)) = b^2 / 3 solved the wrong way (bound sqrt(2 / (3 fan_in)))."""
NOTEBOOK = "07_init_variance"
CELLS = {
    "task7_2_kaiming_uniform": '''
def kaiming_uniform(fan_in, fan_out):
    bound = np.sqrt(2.0 / fan_in / 3)
    return ndl.Tensor(np.random.uniform(-bound, bound, (fan_in, fan_out)), dtype="float32")
''',
}
MUST_FAIL = ['test_7_2_rung7_a_relu_layer_s_factor_on_e_x_2_is_1', 'test_uniform_factor']
HINT = "Task 7.2, rung 7 (a ReLU layer's factor on E[x^2] is 1)"
VISIBLE = True
