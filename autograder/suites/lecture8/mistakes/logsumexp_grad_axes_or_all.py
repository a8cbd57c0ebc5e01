"""LogSumExp.gradient that reads its axes as `self.axes or every axis`: axes=0 is falsy, so the
gradient over axis 0 normalizes over every axis (the forward is right)."""
NOTEBOOK = "03_stable_softmax"
CELLS = {
    "task3_3_logsumexp_op": '''
from needle.ops.shape import kept_shape  # needle's helper: the shape with the reduced axes kept as 1s

class LogSumExp(TensorOp):
    def __init__(self, axes=None):
        self.axes = axes

    def compute(self, a):
        return logsumexp_stable(a, axis=reduced_axes(self.axes, a.ndim))

    def gradient(self, out_grad, node):
        a = node.inputs[0]
        shape = a.shape
        axes = self.axes or tuple(range(len(shape)))
        kept = kept_shape(shape, axes)
        m = np.max(a.realize_cached_data(), axis=reduced_axes(axes, len(shape)), keepdims=True)
        empty = np.isneginf(m)
        m = np.where(empty, 0, m)
        e = ops.exp(a - ops.broadcast_to(Tensor.make_const(m), shape))
        total = ops.reshape(ops.summation(e, axes), kept)
        total = total + Tensor.make_const(empty.astype(total.dtype))
        return ops.broadcast_to(ops.reshape(out_grad, kept_shape(shape, self.axes)), shape) * (e / ops.broadcast_to(total, shape))


def logsumexp(a, axes=None):
    return LogSumExp(axes)(a)
''',
}
MUST_FAIL = ['test_op_gradient']
HINT = 'Task 3.3, rung 13 (gradient on hidden logits, every kind of axes)'
