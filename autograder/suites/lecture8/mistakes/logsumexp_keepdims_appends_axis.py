"""logsumexp_stable that implements keepdims=True by appending a size-1 axis at the end: right
when the last axis is reduced, the wrong shape for any other axis."""
NOTEBOOK = "03_stable_softmax"
CELLS = {
    "task3_2_logsumexp_stable": '''
def logsumexp_stable(x, axis=-1, keepdims=False):
    x = np.asarray(x)
    m = np.max(x, axis=axis, keepdims=True)
    m = np.where(np.isfinite(m), m, 0)
    with np.errstate(divide="ignore"):
        out = np.squeeze(np.log(np.sum(np.exp(x - m), axis=axis, keepdims=True)) + m, axis=axis)
    return out[..., None] if keepdims else out
''',
}
MUST_FAIL = ['test_lse_axis_and_keepdims']
HINT = 'Task 3.2, rung 14 (every axis and tuple, with and without keepdims)'
