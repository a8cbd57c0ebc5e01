"""LogSumExp.gradient builds the kept shape with `for ax in self.axes: kept[ax] = 1`: right for a
tuple of axes, but it raises TypeError when self.axes is None or an int (both allowed). One
mistake, one hint: every test it fails names the axes forms, whichever form made it raise."""
NOTEBOOK = "03_stable_softmax"
CELLS = {
    "task3_3_logsumexp_op": '''
class LogSumExp(TensorOp):
    """Task 3.3"""

    def __init__(self, axes=None):
        self.axes = axes

    def compute(self, a):
        return logsumexp_stable(a, axis=reduced_axes(self.axes, a.ndim))

    def gradient(self, out_grad, node):
        a = node.inputs[0]
        shape = a.shape
        kept = list(shape)
        for ax in self.axes:
            kept[ax] = 1
        kept = tuple(kept)
        m = np.max(a.realize_cached_data(), axis=reduced_axes(self.axes, len(shape)), keepdims=True)
        m = np.where(np.isneginf(m), 0, m)
        e = ops.exp(a - ops.broadcast_to(Tensor.make_const(m), shape))
        total = ops.reshape(ops.summation(e, self.axes), kept)
        softmax = e / ops.broadcast_to(total, shape)
        return ops.broadcast_to(ops.reshape(out_grad, kept), shape) * softmax


def logsumexp(a, axes=None):
    return LogSumExp(axes)(a)
''',
}
MUST_FAIL = ['test_op_gradient_is_differentiable']
HINT = 'Task 3.3, rung 6 (gradient on one slice)'
VISIBLE = True
