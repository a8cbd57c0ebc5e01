"""Task 3.1 answered through needle's logsoftmax op on a Tensor."""
NOTEBOOK = "03_stable_softmax"
CELLS = {
    "task3_1_softmax_stable": '''
def softmax_stable(x, axis=-1):
    x = np.asarray(x)
    return np.exp(ndl.logsoftmax(ndl.Tensor(x, dtype=x.dtype.name), axes=axis).numpy())
''',
}
MUST_FAIL = ["task:3.1"]
HINT = "Task 3.1 must be your own"
VISIBLE = True
