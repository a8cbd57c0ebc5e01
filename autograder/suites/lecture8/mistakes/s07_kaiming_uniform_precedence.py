"""kaiming_uniform with bound 6 / np.sqrt(fan_in) (the square root over fan_in only, instead of
sqrt(6 / fan_in)): one mistake, so the bound test and both std tests must name the same formula."""
NOTEBOOK = "07_init_variance"
CELLS = {
    "task7_2_kaiming_uniform": '''
def kaiming_uniform(fan_in, fan_out):
    bound = 6 / np.sqrt(fan_in)
    return ndl.Tensor(np.random.uniform(-bound, bound, (fan_in, fan_out)), dtype="float32", requires_grad=False)
''',
}
MUST_FAIL = ['test_uniform_bound', 'test_uniform_std', 'test_uniform_std_uses_fan_in']
HINT = 'your bound is 6 / sqrt(fan_in)'
VISIBLE = True
