"""logsumexp_stable that always keeps the reduced axes (keepdims=True on the sum, never squeezed):
right values, but a (3, 4) matrix over its last axis gives shape (3, 1) where (3,) is asked for."""
NOTEBOOK = "03_stable_softmax"
CELLS = {
    "task3_2_logsumexp_stable": '''
def logsumexp_stable(x, axis=-1, keepdims=False):
    m = np.max(x, axis=axis, keepdims=True)
    m = np.where(np.isfinite(m), m, 0)
    with np.errstate(divide="ignore"):
        return m + np.log(np.sum(np.exp(x - m), axis=axis, keepdims=True))
''',
}
MUST_FAIL = ["test_3_2_rung2_a_vector_gives_a_single_number", "test_lse_axis_and_keepdims"]  # its dtype and its input are right
HINT = 'Task 3.2, rung 2 (a vector gives a single number)'
VISIBLE = True
