"""kaiming_normal with std sqrt(2 / fan_out) (PyTorch's (out, in) layout read the wrong way round)."""
NOTEBOOK = "07_init_variance"
CELLS = {
    "task7_1_kaiming_normal": '''
def kaiming_normal(fan_in, fan_out):
    return ndl.Tensor(np.random.randn(fan_in, fan_out) * np.sqrt(2.0 / fan_out), dtype="float32")
''',
}
MUST_FAIL = ['test_normal_std', 'test_normal_std_uses_fan_in']
HINT = 'fan_out is in the formula'
VISIBLE = True
