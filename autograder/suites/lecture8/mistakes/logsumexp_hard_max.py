"""logsumexp_stable returns the max itself (log-sum-exp taken for a hard maximum)."""
NOTEBOOK = "03_stable_softmax"
CELLS = {
    "task3_2_logsumexp_stable": '''
def logsumexp_stable(x, axis=-1, keepdims=False):
    return np.max(x, axis=axis, keepdims=keepdims)
''',
}
MUST_FAIL = ['test_lse_matches_reference', 'test_lse_huge_inputs', 'test_lse_shift_invariance']
HINT = 'soft maximum'
VISIBLE = True
