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
MUST_FAIL = ['test_softmax_matches_reference', 'test_softmax_rows_sum_to_one']
HINT = 'sum to 1'
VISIBLE = True
