"""logsumexp(a, axes) that calls the op's compute on a's array and wraps the value in a new Tensor:
the value is right, but the Tensor is a leaf, not made by a LogSumExp op, so backward never
reaches a."""
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
        kept = kept_shape(shape, self.axes)
        m = np.max(a.realize_cached_data(), axis=reduced_axes(self.axes, len(shape)), keepdims=True)
        empty = np.isneginf(m)
        m = np.where(empty, 0, m)
        e = ops.exp(a - ops.broadcast_to(Tensor.make_const(m), shape))
        total = ops.reshape(ops.summation(e, self.axes), kept)
        total = total + Tensor.make_const(empty.astype(total.dtype))
        return ops.broadcast_to(ops.reshape(out_grad, kept), shape) * (e / ops.broadcast_to(total, shape))


def logsumexp(a, axes=None):
    return Tensor(LogSumExp(axes).compute(a.numpy()))
''',
}
MUST_FAIL = ['test_op_forward']
HINT = 'Task 3.3, rung 1 (a Tensor made by your op)'
VISIBLE = True
