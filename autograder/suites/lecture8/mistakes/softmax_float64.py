"""softmax_stable turns its input into float64 first (np.array(x, dtype=float)): right values,
wrong dtype for float32 logits."""
NOTEBOOK = "03_stable_softmax"
CELLS = {
    "task3_1_softmax_stable": '''
def softmax_stable(x, axis=-1):
    x = np.array(x, dtype=float)
    m = np.max(x, axis=axis, keepdims=True)
    m = np.where(np.isfinite(m), m, 0)
    e = np.exp(x - m)
    s = np.sum(e, axis=axis, keepdims=True)
    return np.divide(e, s, out=np.zeros_like(e), where=s > 0)
''',
}
MUST_FAIL = ['test_3_1_rung7_keeps_the_dtype']
HINT = 'Task 3.1, rung 7 (keeps the dtype)'
