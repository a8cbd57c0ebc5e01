"""logsumexp_stable that subtracts the max in place (`x -= m`, then adds it back to the result):
right values, but the caller's array is left holding the shifted values."""
NOTEBOOK = "03_stable_softmax"
CELLS = {
    "task3_2_logsumexp_stable": '''
def logsumexp_stable(x, axis=-1, keepdims=False):
    m = np.max(x, axis=axis, keepdims=True)
    m = np.where(np.isfinite(m), m, 0)
    x -= m
    with np.errstate(divide="ignore"):
        out = np.log(np.sum(np.exp(x), axis=axis, keepdims=True)) + m
    return out if keepdims else np.squeeze(out, axis=axis)
''',
}
MUST_FAIL = ['test_3_2_rung12_leaves_its_input_as_it_was']
HINT = 'Task 3.2, rung 12 (leaves its input as it was)'
