"""logsumexp_stable returns the max itself (log-sum-exp taken for a hard maximum)."""
NOTEBOOK = "03_stable_softmax"
CELLS = {
    "task3_2_logsumexp_stable": '''
def logsumexp_stable(x, axis=-1, keepdims=False):
    return np.max(x, axis=axis, keepdims=keepdims)
''',
}
MUST_FAIL = ['test_3_2_rung1_one_slice']
HINT = 'Task 3.2, rung 1 (one slice)'
VISIBLE = True
