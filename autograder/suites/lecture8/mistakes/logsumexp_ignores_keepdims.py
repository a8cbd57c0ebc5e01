"""logsumexp_stable always drops the reduced axes, whatever keepdims says."""
NOTEBOOK = "03_stable_softmax"
CELLS = {
    "task3_2_logsumexp_stable": '''
def logsumexp_stable(x, axis=-1, keepdims=False):
    m = np.max(x, axis=axis, keepdims=True)
    m = np.where(np.isfinite(m), m, 0)
    with np.errstate(divide="ignore"):
        out = np.log(np.sum(np.exp(x - m), axis=axis, keepdims=True)) + m
    return np.squeeze(out, axis=axis)
''',
}
MUST_FAIL = ['test_lse_axis_and_keepdims']
HINT = 'Task 3.2, rung 9 (keepdims=True)'
VISIBLE = True
