"""kaiming_normal draws with np.random.rand (uniform on [0, 1)) scaled by sqrt(2 / fan_in): every weight >= 0."""
NOTEBOOK = "07_init_variance"
CELLS = {
    "task7_1_kaiming_normal": '''
def kaiming_normal(fan_in, fan_out):
    return ndl.Tensor(np.random.rand(fan_in, fan_out) * np.sqrt(2.0 / fan_in), dtype="float32")
''',
}
MUST_FAIL = ['test_normal_std', 'test_normal_std_uses_fan_in', 'test_normal_is_gaussian']
HINT = 'all >= 0'
VISIBLE = True
