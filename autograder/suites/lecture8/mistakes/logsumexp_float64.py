"""logsumexp_stable converts its input to float64 first (np.asarray(x, dtype=np.float64)): right
values, float64 out for float32 in."""
NOTEBOOK = "03_stable_softmax"
CELLS = {
    "task3_2_logsumexp_stable": '''
def logsumexp_stable(x, axis=-1, keepdims=False):
    x = np.asarray(x, dtype=np.float64)
    m = np.max(x, axis=axis, keepdims=True)
    m = np.where(np.isfinite(m), m, 0)
    with np.errstate(divide="ignore"):
        out = np.log(np.sum(np.exp(x - m), axis=axis, keepdims=True)) + m
    return out if keepdims else np.squeeze(out, axis=axis)
''',
}
MUST_FAIL = ['test_3_2_rung11_keeps_the_dtype']
HINT = 'Task 3.2, rung 11 (keeps the dtype)'
