"""kaiming_normal keeps numpy's float64 ("to keep the precision": dtype=w.dtype), where the task asks for
float32, the dtype of needle's parameters."""
NOTEBOOK = "07_init_variance"
CELLS = {
    "task7_1_kaiming_normal": '''
def kaiming_normal(fan_in, fan_out):
    w = np.random.randn(fan_in, fan_out) * np.sqrt(2.0 / fan_in)
    return ndl.Tensor(w, dtype=w.dtype, requires_grad=False)
''',
}
MUST_FAIL = ['test_7_1_rung3_float32', 'test_normal_distribution', 'test_normal_factor', 'test_normal_reproducible']
HINT = 'Task 7.1, rung 3 (float32)'
VISIBLE = True
