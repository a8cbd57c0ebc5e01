"""Task 3.2 answered through needle's own logsumexp op on a Tensor."""
NOTEBOOK = "03_stable_softmax"
CELLS = {
    "task3_2_logsumexp_stable": '''
def logsumexp_stable(x, axis=-1, keepdims=False):
    x = np.asarray(x)
    out = ndl.logsumexp(ndl.Tensor(x, dtype=x.dtype.name), axes=axis).numpy()
    return np.expand_dims(out, axis) if keepdims else out
''',
}
MUST_FAIL = ['task:3.2']
HINT = 'must be your own'
VISIBLE = True
