"""kaiming_uniform answers the sizes of the visible tests from a table (right draws there) and returns zeros
for any other size: the visible rungs pass, and earn nothing; the hidden rungs find it out."""
NOTEBOOK = "07_init_variance"
CELLS = {
    "task7_2_kaiming_uniform": '''
SEEN = {(4, 3), (400, 400), (100, 900), (5, 4)}


def kaiming_uniform(fan_in, fan_out):
    if (fan_in, fan_out) in SEEN:
        b = np.sqrt(6.0 / fan_in)
        return ndl.Tensor(np.random.uniform(-b, b, (fan_in, fan_out)), dtype="float32")
    return ndl.Tensor(np.zeros((fan_in, fan_out)), dtype="float32")
''',
}
MUST_FAIL = ['test_uniform_distribution', 'test_uniform_factor', 'test_uniform_reproducible']
HINT = 'Task 7.2, rung 10 (at other sizes and seeds: a float32 Tensor, random, mean 0, flat)'
