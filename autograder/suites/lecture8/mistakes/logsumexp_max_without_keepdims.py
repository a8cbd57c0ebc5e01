"""logsumexp_stable takes the max without keepdims: on a matrix x - m lines the maxima up with
the wrong axis (a ValueError, or wrong values on a square matrix)."""
NOTEBOOK = "03_stable_softmax"
CELLS = {
    "task3_2_logsumexp_stable": '''
def logsumexp_stable(x, axis=-1, keepdims=False):
    m = np.max(x, axis=axis)
    m = np.where(np.isfinite(m), m, 0)
    with np.errstate(divide="ignore"):
        out = np.log(np.sum(np.exp(x - m), axis=axis)) + m
    return np.expand_dims(out, axis) if keepdims else out
''',
}
MUST_FAIL = ['test_lse_axis_and_keepdims']
HINT = 'Task 3.2, rung 4 (rows of a matrix)'
VISIBLE = True
