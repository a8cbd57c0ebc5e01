"""logsumexp_stable that always reduces the last axis, whatever `axis` says (keepdims honoured)."""
NOTEBOOK = "03_stable_softmax"
CELLS = {
    "task3_2_logsumexp_stable": '''
def logsumexp_stable(x, axis=-1, keepdims=False):
    x = np.asarray(x)
    m = np.max(x, axis=-1, keepdims=True)
    m = np.where(np.isfinite(m), m, 0)
    with np.errstate(divide="ignore"):
        out = np.log(np.sum(np.exp(x - m), axis=-1, keepdims=True)) + m
    return out if keepdims else np.squeeze(out, axis=-1)
''',
}
MUST_FAIL = ['test_lse_axis_and_keepdims']
HINT = 'Task 3.2, rung 7 (along axis 0)'
VISIBLE = True
