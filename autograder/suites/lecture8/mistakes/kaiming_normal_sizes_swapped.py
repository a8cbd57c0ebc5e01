"""kaiming_normal draws an array of shape (fan_out, fan_in), PyTorch's Linear.weight layout."""
NOTEBOOK = "07_init_variance"
CELLS = {
    "task7_1_kaiming_normal": '''
def kaiming_normal(fan_in, fan_out):
    return ndl.Tensor(np.random.randn(fan_out, fan_in) * np.sqrt(2.0 / fan_in), dtype="float32")
''',
}
MUST_FAIL = ['test_7_1_rung2_shape_fan_in_fan_out', 'test_normal_distribution', 'test_normal_factor', 'test_normal_reproducible']
HINT = 'Task 7.1, rung 2 (shape (fan_in, fan_out))'
VISIBLE = True
