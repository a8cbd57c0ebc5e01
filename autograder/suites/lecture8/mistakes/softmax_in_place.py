"""softmax_stable that subtracts the max in place (`x -= m`): right values, but the caller's array
is overwritten with the shifted logits (whoever passed x finds it changed afterwards)."""
NOTEBOOK = "03_stable_softmax"
CELLS = {
    "task3_1_softmax_stable": '''
def softmax_stable(x, axis=-1):
    m = np.max(x, axis=axis, keepdims=True)
    m = np.where(np.isfinite(m), m, 0)
    x -= m
    e = np.exp(x)
    s = np.sum(e, axis=axis, keepdims=True)
    return np.divide(e, s, out=np.zeros_like(e), where=s > 0)
''',
}
MUST_FAIL = ['test_3_1_rung8_leaves_its_input_as_it_was']
HINT = 'Task 3.1, rung 8 (leaves its input as it was)'
