"""Task 7.1 answered trivially with zeros of the right shape and dtype. It must earn nothing."""
NOTEBOOK = "07_init_variance"
CELLS = {
    "task7_1_kaiming_normal": '''
def kaiming_normal(fan_in, fan_out):
    return ndl.Tensor(np.zeros((fan_in, fan_out)), dtype="float32")
''',
}
MUST_FAIL = ['test_7_1_rung4_random_values_not_all_equal', 'test_normal_distribution', 'test_normal_factor', 'test_normal_reproducible']
HINT = 'Task 7.1, rung 4 (random values, not all equal)'
VISIBLE = True
