"""softmax_stable forgets to divide: it returns exp(x - max), whose rows do not sum to 1."""
NOTEBOOK = "03_stable_softmax"
CELLS = {
    "task3_1_softmax_stable": '''
def softmax_stable(x, axis=-1):
    m = np.max(x, axis=axis, keepdims=True)
    m = np.where(np.isfinite(m), m, 0)
    return np.exp(x - m)
''',
}
MUST_FAIL = ['test_3_1_rung1_one_slice']
HINT = 'Task 3.1, rung 1 (one slice)'
VISIBLE = True
