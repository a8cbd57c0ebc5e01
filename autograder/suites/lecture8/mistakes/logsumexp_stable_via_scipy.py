"""logsumexp_stable answered with scipy.special.logsumexp: Tasks 3.1 and 3.2 are plain numpy, and
the grader's worker provides numpy, needle and the standard library only (the in-kernel route and
selfcheck import as it does). The hint names the module at the student's line; it read only
"should be log(sum(exp(x)))"."""
NOTEBOOK = "03_stable_softmax"
CELLS = {
    "task3_2_logsumexp_stable": '''
def logsumexp_stable(x, axis=-1, keepdims=False):
    from scipy.special import logsumexp
    return logsumexp(x, axis=axis, keepdims=keepdims)
''',
}
MUST_FAIL = ['task:3.2']
HINT = "scipy"  # the visible cell (where scipy imports) says it uses scipy.special.logsumexp; the grader, where it cannot be imported, quotes the import line
VISIBLE = True
