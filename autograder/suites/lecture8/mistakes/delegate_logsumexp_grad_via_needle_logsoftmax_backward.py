"""Task 3.3's gradient delegated to needle's log-softmax backward op: with g the adjoint spread
evenly over each slice, g - logsoftmax_backward(g, y) = softmax * out_grad."""
NOTEBOOK = "03_stable_softmax"
CELLS = {
    "task3_3_logsumexp_op": '''
from needle.ops.shape import kept_shape  # needle's helper: the shape with the reduced axes kept as 1s

class LogSumExp(TensorOp):
    """Task 3.3"""

    def __init__(self, axes=None):
        self.axes = axes

    def compute(self, a):
        return logsumexp_stable(a, axis=reduced_axes(self.axes, a.ndim))

    def gradient(self, out_grad, node):
        a = node.inputs[0]
        kept = kept_shape(a.shape, self.axes)
        g = ops.broadcast_to(ops.reshape(out_grad, kept), a.shape) / (a.numpy().size // max(node.numpy().size, 1))
        y = a - ops.broadcast_to(ops.reshape(node, kept), a.shape)
        return g - ndl.ops.logsoftmax_backward(g, y, reduced_axes(self.axes, a.ndim))


def logsumexp(a, axes=None):
    return LogSumExp(axes)(a)
''',
}
MUST_FAIL = ["task:3.3"]
HINT = "Task 3.3 must be your own"
VISIBLE = True
