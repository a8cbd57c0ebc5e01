"""kaiming_uniform draws from a new np.random.default_rng(): random, but np.random.seed does not reproduce it."""
NOTEBOOK = "07_init_variance"
CELLS = {
    "task7_2_kaiming_uniform": '''
def kaiming_uniform(fan_in, fan_out):
    b = np.sqrt(6.0 / fan_in)
    return ndl.Tensor(np.random.default_rng().uniform(-b, b, (fan_in, fan_out)), dtype="float32")
''',
}
MUST_FAIL = ['test_uniform_reproducible']
HINT = 'Task 7.2, rung 12 (new numbers at each call, the same ones after the same np.random.seed)'
