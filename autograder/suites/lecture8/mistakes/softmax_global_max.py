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
MUST_FAIL = ['test_softmax_huge_inputs', 'test_softmax_rows_sum_to_one']
HINT = 'own max'
VISIBLE = True
