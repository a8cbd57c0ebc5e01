"""kaiming_uniform without the ReLU gain: bound sqrt(3 / fan_in), variance 1 / fan_in."""
NOTEBOOK = "07_init_variance"
CELLS = {
    "task7_2_kaiming_uniform": '''
def kaiming_uniform(fan_in, fan_out):
    bound = np.sqrt(3.0 / fan_in)
    return ndl.Tensor(np.random.uniform(-bound, bound, (fan_in, fan_out)), dtype="float32")
''',
}
MUST_FAIL = ['test_uniform_bound', 'test_uniform_std', 'test_uniform_std_uses_fan_in']
HINT = 'each ReLU layer halves E[x^2]'
VISIBLE = True
