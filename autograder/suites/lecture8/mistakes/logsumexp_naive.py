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
MUST_FAIL = ['test_lse_huge_inputs', 'test_lse_shift_invariance']
HINT = 'subtract the max before exp'
VISIBLE = True
