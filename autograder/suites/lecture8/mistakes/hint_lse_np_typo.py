"""logsumexp_stable calls np.logg, a misspelt numpy function: AttributeError (module 'numpy' has
no attribute 'logg'); the hint names the module and the misspelt name from the student's own line
(audit case c03_lse_np_typo)."""
NOTEBOOK = "03_stable_softmax"
CELLS = {
    "task3_2_logsumexp_stable": '''
def logsumexp_stable(x, axis=-1, keepdims=False):
    x = np.asarray(x)
    m = np.max(x, axis=axis, keepdims=True)
    m = np.where(np.isfinite(m), m, 0)
    s = np.sum(np.exp(x - m), axis=axis, keepdims=True)
    with np.errstate(divide="ignore"):
        out = np.logg(s) + m
    return out if keepdims else np.squeeze(out, axis=axis)
''',
}
MUST_FAIL = ['task:3.2']
HINT = 'Task 3.2, rung 1 (one slice)'
VISIBLE = True
