"""kaiming_normal with std sqrt(2 / fan_out) (PyTorch's (out, in) layout read the wrong way round)."""
NOTEBOOK = "07_init_variance"
CELLS = {
    "task7_1_kaiming_normal": '''
def kaiming_normal(fan_in, fan_out):
    return ndl.Tensor(np.random.randn(fan_in, fan_out) * np.sqrt(2.0 / fan_out), dtype="float32")
''',
}
MUST_FAIL = ['test_7_1_rung8_the_factor_is_1_on_a_layer_wider_than_its_input', 'test_normal_factor']
HINT = 'Task 7.1, rung 8 (the factor is 1 on a layer wider than its input)'
VISIBLE = True
