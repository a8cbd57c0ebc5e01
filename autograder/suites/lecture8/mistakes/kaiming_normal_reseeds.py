"""kaiming_normal calls np.random.seed(0) before drawing, "to make it reproducible": every call
returns the same weights, so every layer of a network gets the same matrix."""
NOTEBOOK = "07_init_variance"
CELLS = {
    "task7_1_kaiming_normal": '''
def kaiming_normal(fan_in, fan_out):
    np.random.seed(0)
    std = np.sqrt(2.0 / fan_in)
    return ndl.Tensor(np.random.randn(fan_in, fan_out) * std, dtype="float32", requires_grad=False)
''',
}
MUST_FAIL = ['test_7_1_rung9_new_numbers_at_each_call', 'test_normal_reproducible']
HINT = 'Task 7.1, rung 9 (new numbers at each call)'
VISIBLE = True
