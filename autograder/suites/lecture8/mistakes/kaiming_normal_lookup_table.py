"""kaiming_normal answers the sizes of the visible tests from a table (right draws there) and returns zeros
for any other size: the visible rungs pass, and earn nothing; the hidden rungs, at sizes drawn for each
submission, find it out."""
NOTEBOOK = "07_init_variance"
CELLS = {
    "task7_1_kaiming_normal": '''
SEEN = {(4, 3), (400, 400), (100, 900), (5, 4)}


def kaiming_normal(fan_in, fan_out):
    if (fan_in, fan_out) in SEEN:
        return ndl.Tensor(np.random.randn(fan_in, fan_out) * np.sqrt(2.0 / fan_in), dtype="float32")
    return ndl.Tensor(np.zeros((fan_in, fan_out)), dtype="float32")
''',
}
MUST_FAIL = ['test_normal_distribution', 'test_normal_factor', 'test_normal_reproducible']
HINT = 'Task 7.1, rung 10 (at other sizes and seeds: a float32 Tensor, random, mean 0, a normal)'
