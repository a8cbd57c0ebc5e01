"""softmax_stable that shifts by max(m, 0), "only large logits overflow": right on logits near 0
and far above, but on a row far below 0 every exponential underflows and the row gets zeros."""
NOTEBOOK = "03_stable_softmax"
CELLS = {
    "task3_1_softmax_stable": '''
def softmax_stable(x, axis=-1):
    x = np.asarray(x)
    m = np.maximum(np.max(x, axis=axis, keepdims=True), 0)
    e = np.exp(x - m)
    s = np.sum(e, axis=axis, keepdims=True)
    return np.divide(e, s, out=np.zeros_like(e), where=s > 0)
''',
}
MUST_FAIL = ['test_softmax_hidden_logits']
HINT = 'Task 3.1, rung 9 (hidden logits at every scale, masked or not)'
