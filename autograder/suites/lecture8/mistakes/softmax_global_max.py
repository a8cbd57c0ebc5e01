"""softmax_stable shifts by the max of the whole array instead of each slice's own max: right on
vectors, but the rows of a matrix far below the global max underflow to 0 / 0 = nan."""
NOTEBOOK = "03_stable_softmax"
CELLS = {
    "task3_1_softmax_stable": '''
def softmax_stable(x, axis=-1):
    x = np.asarray(x)
    finite = x[np.isfinite(x)]
    m = finite.max() if finite.size else 0
    e = np.exp(x - m)
    s = np.sum(e, axis=axis, keepdims=True)
    return np.divide(e, s, out=np.zeros_like(e), where=s > 0)
''',
}
MUST_FAIL = ['test_3_1_rung4_rows_at_very_different_scales']
HINT = 'Task 3.1, rung 4 (rows at very different scales)'
VISIBLE = True
