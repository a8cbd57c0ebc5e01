"""Trivial answer to Task 3.1: a uniform distribution whatever the logits, np.full_like(x, 1/n)."""
NOTEBOOK = "03_stable_softmax"
CELLS = {
    "task3_1_softmax_stable": '''
def softmax_stable(x, axis=-1):
    x = np.asarray(x)
    return np.full_like(x, 1 / x.shape[axis])
''',
}
MUST_FAIL = ['task:3.1']
HINT = 'Task 3.1, rung 1 (one slice)'
VISIBLE = True
