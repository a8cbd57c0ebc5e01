"""kaiming_uniform draws from U(0, b) instead of U(-b, b)."""
NOTEBOOK = "07_init_variance"
CELLS = {
    "task7_2_kaiming_uniform": '''
def kaiming_uniform(fan_in, fan_out):
    b = np.sqrt(6.0 / fan_in)
    return ndl.Tensor(np.random.uniform(0, b, (fan_in, fan_out)), dtype="float32")
''',
}
MUST_FAIL = ['test_7_2_rung5_mean_0', 'test_uniform_distribution']
HINT = 'Task 7.2, rung 5 (mean 0)'
VISIBLE = True
