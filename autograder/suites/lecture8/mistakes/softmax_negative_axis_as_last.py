"""softmax_stable that reads any negative axis as the last one (axis < 0: x.ndim - 1): right for
axis=-1 and axis >= 0, wrong for axis=-2."""
NOTEBOOK = "03_stable_softmax"
CELLS = {
    "task3_1_softmax_stable": '''
def softmax_stable(x, axis=-1):
    x = np.asarray(x)
    if axis < 0:
        axis = x.ndim - 1
    m = np.max(x, axis=axis, keepdims=True)
    m = np.where(np.isfinite(m), m, 0)
    e = np.exp(x - m)
    s = np.sum(e, axis=axis, keepdims=True)
    return np.divide(e, s, out=np.zeros_like(e), where=s > 0)
''',
}
MUST_FAIL = ['test_softmax_any_axis']
HINT = 'Task 3.1, rung 10 (every axis, negative ones too)'
