"""kaiming_uniform returns the numpy array instead of a needle Tensor."""
NOTEBOOK = "07_init_variance"
CELLS = {
    "task7_2_kaiming_uniform": '''
def kaiming_uniform(fan_in, fan_out):
    b = np.sqrt(6.0 / fan_in)
    return np.random.uniform(-b, b, (fan_in, fan_out)).astype(np.float32)
''',
}
MUST_FAIL = ['test_7_2_rung1_a_needle_tensor', 'test_uniform_distribution', 'test_uniform_factor', 'test_uniform_reproducible']
HINT = 'Task 7.2, rung 1 (a needle Tensor)'
VISIBLE = True
