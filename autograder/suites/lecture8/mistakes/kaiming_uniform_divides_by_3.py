"""kaiming_uniform with b^2 = Var(W) / 3: Var(U(-b, b)) = b^2 / 3 solved the wrong way (bound sqrt(2 / (3 fan_in)))."""
NOTEBOOK = "07_init_variance"
CELLS = {
    "task7_2_kaiming_uniform": '''
def kaiming_uniform(fan_in, fan_out):
    bound = np.sqrt(2.0 / fan_in / 3)
    return ndl.Tensor(np.random.uniform(-bound, bound, (fan_in, fan_out)), dtype="float32")
''',
}
MUST_FAIL = ['test_uniform_bound', 'test_uniform_std', 'test_uniform_std_uses_fan_in']
HINT = 'it does not divide'
VISIBLE = True
