"""kaiming_normal with the smaller of the two fans, sqrt(2 / min(fan_in, fan_out)) ("the narrow side limits
the signal"): right on square layers and on layers wider than their input, too wide on narrower ones."""
NOTEBOOK = "07_init_variance"
CELLS = {
    "task7_1_kaiming_normal": '''
def kaiming_normal(fan_in, fan_out):
    std = np.sqrt(2.0 / min(fan_in, fan_out))
    return ndl.Tensor(np.random.randn(fan_in, fan_out) * std, dtype="float32", requires_grad=False)
''',
}
MUST_FAIL = ['test_normal_factor']
HINT = 'Task 7.1, rung 11 (the factor is 1 on narrower and wider layers of other sizes)'
