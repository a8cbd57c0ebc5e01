"""logsumexp_stable that shifts by max(m, 0), "only large logits overflow": right on logits near
0 and far above, but a row far below 0 underflows to log(0) = -inf."""
NOTEBOOK = "03_stable_softmax"
CELLS = {
    "task3_2_logsumexp_stable": '''
def logsumexp_stable(x, axis=-1, keepdims=False):
    x = np.asarray(x)
    m = np.maximum(np.max(x, axis=axis, keepdims=True), 0)
    with np.errstate(divide="ignore"):
        out = np.log(np.sum(np.exp(x - m), axis=axis, keepdims=True)) + m
    return out if keepdims else np.squeeze(out, axis=axis)
''',
}
MUST_FAIL = ['test_lse_hidden_logits']
HINT = 'Task 3.2, rung 13 (hidden logits at every scale, masked or not)'
