"""LogSumExp.compute without the shift: np.log(np.sum(np.exp(a))) overflows on huge inputs."""
NOTEBOOK = "03_stable_softmax"
CELLS = {
    "task3_3_logsumexp_op": '''
from needle.ops.shape import kept_shape  # needle's helper: the shape with the reduced axes kept as 1s

class LogSumExp(TensorOp):
    """Task 3.3"""

    def __init__(self, axes=None):
        self.axes = axes

    def compute(self, a):
        return np.log(np.sum(np.exp(a), axis=reduced_axes(self.axes, a.ndim)))

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
        softmax = e / ops.broadcast_to(total, shape)

        return ops.broadcast_to(ops.reshape(out_grad, kept), shape) * softmax


def logsumexp(a, axes=None):
    return LogSumExp(axes)(a)
''',
}
MUST_FAIL = ['test_3_3_rung4_forward_on_rows_at_very_different_scales']
HINT = 'Task 3.3, rung 4 (forward on rows at very different scales)'
VISIBLE = True
