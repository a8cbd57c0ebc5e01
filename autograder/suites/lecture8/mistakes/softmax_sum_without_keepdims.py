"""softmax_stable keeps the max's axis but sums without keepdims: the division lines the sums
up with the wrong axis (a ValueError, or wrong values on a square matrix)."""
NOTEBOOK = "03_stable_softmax"
CELLS = {
    "task3_1_softmax_stable": '''
def softmax_stable(x, axis=-1):
    m = np.max(x, axis=axis, keepdims=True)
    m = np.where(np.isfinite(m), m, 0)
    e = np.exp(x - m)
    return e / e.sum(axis=axis)
''',
}
MUST_FAIL = ['test_softmax_any_axis']
HINT = 'Task 3.1, rung 3 (rows of a matrix)'
VISIBLE = True
