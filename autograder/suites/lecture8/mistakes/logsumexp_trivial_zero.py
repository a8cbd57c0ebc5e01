"""Trivial answer to Task 3.2: 0 of the right shape and dtype, whatever x is."""
NOTEBOOK = "03_stable_softmax"
CELLS = {
    "task3_2_logsumexp_stable": '''
def logsumexp_stable(x, axis=-1, keepdims=False):
    return np.zeros_like(np.sum(x, axis=axis, keepdims=keepdims))
''',
}
MUST_FAIL = ['task:3.2']
HINT = 'Task 3.2, rung 1 (one slice)'
VISIBLE = True
