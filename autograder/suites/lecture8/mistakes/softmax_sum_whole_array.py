"""softmax_stable shifts each row by its own max but divides by the sum of the whole array
(e.sum() with no axis): right on vectors, every row of a matrix too small."""
NOTEBOOK = "03_stable_softmax"
CELLS = {
    "task3_1_softmax_stable": '''
def softmax_stable(x, axis=-1):
    m = np.max(x, axis=axis, keepdims=True)
    m = np.where(np.isfinite(m), m, 0)
    e = np.exp(x - m)
    return e / e.sum()
''',
}
MUST_FAIL = ['test_softmax_any_axis']
HINT = 'Task 3.1, rung 3 (rows of a matrix)'
VISIBLE = True
