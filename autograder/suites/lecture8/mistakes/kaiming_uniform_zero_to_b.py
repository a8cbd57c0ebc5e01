"""kaiming_uniform draws from U(0, b) instead of U(-b, b)."""
NOTEBOOK = "07_init_variance"
CELLS = {
    "task7_2_kaiming_uniform": '''
def kaiming_uniform(fan_in, fan_out):
    b = np.sqrt(6.0 / fan_in)
    return ndl.Tensor(np.random.uniform(0, b, (fan_in, fan_out)), dtype="float32")
''',
}
MUST_FAIL = ['test_uniform_bound', 'test_uniform_std', 'test_uniform_std_uses_fan_in']
HINT = 'all >= 0'
VISIBLE = True
