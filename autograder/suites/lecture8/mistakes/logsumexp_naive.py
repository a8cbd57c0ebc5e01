"""logsumexp_stable without the shift: log(sum(exp(x))) overflows to inf (and underflows to
log(0) = -inf for very negative rows)."""
NOTEBOOK = "03_stable_softmax"
CELLS = {
    "task3_2_logsumexp_stable": '''
def logsumexp_stable(x, axis=-1, keepdims=False):
    with np.errstate(divide="ignore"):
        return np.log(np.sum(np.exp(x), axis=axis, keepdims=keepdims))
''',
}
MUST_FAIL = ['test_3_2_rung3_logits_far_beyond_exp_s_range']
HINT = "Task 3.2, rung 3 (logits far beyond exp's range)"
VISIBLE = True
