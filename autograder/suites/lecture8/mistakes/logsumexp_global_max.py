"""logsumexp_stable shifts by the max of the whole array: the rows of a matrix far below it
underflow to log(0) = -inf."""
NOTEBOOK = "03_stable_softmax"
CELLS = {
    "task3_2_logsumexp_stable": '''
def logsumexp_stable(x, axis=-1, keepdims=False):
    x = np.asarray(x)
    finite = x[np.isfinite(x)]
    m = finite.max() if finite.size else x.dtype.type(0)
    with np.errstate(divide="ignore"):
        return np.log(np.sum(np.exp(x - m), axis=axis, keepdims=keepdims)) + m
''',
}
MUST_FAIL = ['test_3_2_rung5_rows_at_very_different_scales']
HINT = 'Task 3.2, rung 5 (rows at very different scales)'
VISIBLE = True
