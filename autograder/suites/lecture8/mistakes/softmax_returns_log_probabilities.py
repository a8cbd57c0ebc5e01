"""softmax_stable returns the log-softmax, x - max - log(sum(exp(x - max))), stable but not
exponentiated: every value <= 0, none a probability."""
NOTEBOOK = "03_stable_softmax"
CELLS = {
    "task3_1_softmax_stable": '''
def softmax_stable(x, axis=-1):
    m = np.max(x, axis=axis, keepdims=True)
    return x - m - np.log(np.sum(np.exp(x - m), axis=axis, keepdims=True))
''',
}
MUST_FAIL = ['task:3.1']
HINT = 'Task 3.1, rung 1 (one slice)'
NOT_HINTS = ['sum to 1']
VISIBLE = True
