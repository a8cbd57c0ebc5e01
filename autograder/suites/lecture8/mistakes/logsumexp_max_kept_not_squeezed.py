"""logsumexp_stable adds back the max computed with keepdims=True to a sum whose axis was dropped:
numpy broadcasts them into a table (rows x rows). It had four messages (keepdims ignored, a
generic one, "the forward keeps the reduced axes", a raised ValueError); one now, in 3.2 and 3.3."""
NOTEBOOK = "03_stable_softmax"
CELLS = {
    "task3_2_logsumexp_stable": '''
def logsumexp_stable(x, axis=-1, keepdims=False):
    m = np.max(x, axis=axis, keepdims=True)
    m = np.where(np.isfinite(m), m, 0)
    s = np.sum(np.exp(x - m), axis=axis, keepdims=keepdims)
    with np.errstate(divide="ignore"):
        return np.log(s) + m
''',
}
MUST_FAIL = ['test_lse_axis_and_keepdims']
HINT = 'Task 3.2, rung 2 (a vector gives a single number)'
VISIBLE = True
