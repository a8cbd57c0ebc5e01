"""Task 7.2 answered trivially: every weight equals the bound sqrt(6 / fan_in). It must earn nothing."""
NOTEBOOK = "07_init_variance"
CELLS = {
    "task7_2_kaiming_uniform": '''
def kaiming_uniform(fan_in, fan_out):
    return ndl.Tensor(np.full((fan_in, fan_out), np.sqrt(6.0 / fan_in)), dtype="float32")
''',
}
MUST_FAIL = ['test_7_2_rung4_random_values_not_all_equal', 'test_uniform_distribution', 'test_uniform_factor', 'test_uniform_reproducible']
HINT = 'Task 7.2, rung 4 (random values, not all equal)'
VISIBLE = True
