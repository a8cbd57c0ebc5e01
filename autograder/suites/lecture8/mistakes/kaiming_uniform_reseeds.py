"""kaiming_uniform calls np.random.seed(0) before drawing, "to make it reproducible": every call returns the
same weights."""
NOTEBOOK = "07_init_variance"
CELLS = {
    "task7_2_kaiming_uniform": '''
def kaiming_uniform(fan_in, fan_out):
    np.random.seed(0)
    b = np.sqrt(6.0 / fan_in)
    return ndl.Tensor(np.random.uniform(-b, b, (fan_in, fan_out)), dtype="float32")
''',
}
MUST_FAIL = ['test_7_2_rung9_new_numbers_at_each_call', 'test_uniform_reproducible']
HINT = 'Task 7.2, rung 9 (new numbers at each call)'
VISIBLE = True
