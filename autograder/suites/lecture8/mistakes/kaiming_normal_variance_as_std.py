"""kaiming_normal uses the variance 2 / fan_in as the standard deviation."""
NOTEBOOK = "07_init_variance"
CELLS = {
    "task7_1_kaiming_normal": '''
def kaiming_normal(fan_in, fan_out):
    return ndl.Tensor(np.random.normal(0.0, 2.0 / fan_in, (fan_in, fan_out)), dtype="float32")
''',
}
MUST_FAIL = ['test_normal_std', 'test_normal_std_uses_fan_in']
HINT = 'used as the standard deviation'
VISIBLE = True
