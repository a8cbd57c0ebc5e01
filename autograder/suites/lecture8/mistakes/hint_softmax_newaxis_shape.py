"""softmax_stable appends the reduced axis at the end ([..., None]) instead of keepdims=True: right
for the last axis, a numpy broadcast error along another. The hint is numpy's broadcast rule, not
needle's "never broadcasts" (audit case c03_soft_newaxis_shape)."""
NOTEBOOK = "03_stable_softmax"
CELLS = {
    "task3_1_softmax_stable": '''
def softmax_stable(x, axis=-1):
    x = np.asarray(x)
    m = np.max(x, axis=axis)[..., None]
    m = np.where(np.isfinite(m), m, 0)
    e = np.exp(x - m)
    s = np.sum(e, axis=axis)[..., None]
    return np.divide(e, s, out=np.zeros_like(e), where=s > 0)
''',
}
MUST_FAIL = ['test_softmax_any_axis']
HINT = 'Task 3.1, rung 6 (along axis 0)'
NOT_HINTS = ['never broadcasts']
VISIBLE = True
