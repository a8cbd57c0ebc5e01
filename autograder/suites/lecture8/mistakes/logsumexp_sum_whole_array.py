"""logsumexp_stable sums the shifted exponentials over the whole array (no axis on the sum):
right on vectors, wrong on every matrix."""
NOTEBOOK = "03_stable_softmax"
CELLS = {
    "task3_2_logsumexp_stable": '''
def logsumexp_stable(x, axis=-1, keepdims=False):
    m = np.max(x, axis=axis, keepdims=True)
    m = np.where(np.isfinite(m), m, 0)
    with np.errstate(divide="ignore"):
        out = np.log(np.sum(np.exp(x - m))) + m
    return out if keepdims else np.squeeze(out, axis=axis)
''',
}
MUST_FAIL = ['test_lse_axis_and_keepdims']
HINT = 'Task 3.2, rung 4 (rows of a matrix)'
VISIBLE = True
