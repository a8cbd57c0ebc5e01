"""kaiming_normal with the variance condition solved upside down: fan_in Var(W) / 2 = 1 read as Var(W) = fan_in / 2."""
NOTEBOOK = "07_init_variance"
CELLS = {
    "task7_1_kaiming_normal": '''
def kaiming_normal(fan_in, fan_out):
    return ndl.Tensor(np.random.randn(fan_in, fan_out) * np.sqrt(fan_in / 2), dtype="float32")
''',
}
MUST_FAIL = ['test_normal_std', 'test_normal_std_uses_fan_in']
HINT = 'solved upside down'
VISIBLE = True
