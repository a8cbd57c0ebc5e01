"""kaiming_normal draws with np.random.rand (uniform on [0, 1)) scaled by sqrt(2 / fan_in): every weight >= 0."""
NOTEBOOK = "07_init_variance"
CELLS = {
    "task7_1_kaiming_normal": '''
def kaiming_normal(fan_in, fan_out):
    return ndl.Tensor(np.random.rand(fan_in, fan_out) * np.sqrt(2.0 / fan_in), dtype="float32")
''',
}
MUST_FAIL = ['test_7_1_rung5_mean_0', 'test_normal_distribution', 'test_normal_factor']
HINT = 'Task 7.1, rung 5 (mean 0)'
VISIBLE = True
