"""kaiming_uniform with b = 3 * std: Var(U(-b, b)) = b^2 / 3 read as b / 3 = std (bound sqrt(18 / fan_in))."""
NOTEBOOK = "07_init_variance"
CELLS = {
    "task7_2_kaiming_uniform": '''
def kaiming_uniform(fan_in, fan_out):
    bound = 3 * np.sqrt(2.0 / fan_in)
    return ndl.Tensor(np.random.uniform(-bound, bound, (fan_in, fan_out)), dtype="float32")
''',
}
MUST_FAIL = ['test_uniform_bound', 'test_uniform_std', 'test_uniform_std_uses_fan_in']
HINT = 'relates b^2, not b, to the variance'
VISIBLE = True
