"""kaiming_normal with std 2 / fan_in ** 0.5: ** binds tighter than /, so the root is of fan_in
alone (std 2 / sqrt(fan_in), variance 4 / fan_in)."""
NOTEBOOK = "07_init_variance"
CELLS = {
    "task7_1_kaiming_normal": '''
def kaiming_normal(fan_in, fan_out):
    std = 2 / fan_in ** 0.5
    return ndl.Tensor(np.random.randn(fan_in, fan_out) * std, dtype="float32", requires_grad=False)
''',
}
MUST_FAIL = ['test_normal_std', 'test_normal_std_uses_fan_in']
HINT = 'the square root must cover the 2 too'
VISIBLE = True
