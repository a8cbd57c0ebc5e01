"""softmax_stable that casts its input to float32 first (np.asarray(x, dtype=np.float32)): right
on float32 input, but a float64 input comes back float32 (and rounded to float32's 7 digits)."""
NOTEBOOK = "03_stable_softmax"
CELLS = {
    "task3_1_softmax_stable": '''
def softmax_stable(x, axis=-1):
    x = np.asarray(x, dtype=np.float32)
    m = np.max(x, axis=axis, keepdims=True)
    m = np.where(np.isfinite(m), m, 0)
    e = np.exp(x - m)
    s = np.sum(e, axis=axis, keepdims=True)
    return np.divide(e, s, out=np.zeros_like(e), where=s > 0)
''',
}
MUST_FAIL = ['test_3_1_rung7_keeps_the_dtype']
HINT = 'Task 3.1, rung 7 (keeps the dtype)'
NOT_HINTS = ["shift invariant"]
