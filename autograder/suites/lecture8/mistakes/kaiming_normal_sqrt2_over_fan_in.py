"""kaiming_normal with std sqrt(2) / fan_in: the square root taken of 2 only."""
NOTEBOOK = "07_init_variance"
CELLS = {
    "task7_1_kaiming_normal": '''
def kaiming_normal(fan_in, fan_out):
    return ndl.Tensor(np.random.randn(fan_in, fan_out) * np.sqrt(2) / fan_in, dtype="float32", requires_grad=False)
''',
}
MUST_FAIL = ['test_normal_std', 'test_normal_std_uses_fan_in']
HINT = 'the square root must cover fan_in too'
VISIBLE = True
