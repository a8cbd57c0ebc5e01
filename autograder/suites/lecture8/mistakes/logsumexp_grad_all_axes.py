"""LogSumExp.gradient that normalizes over every axis (one global max, a sum with no axes):
right for axes=None, wrong once only some axes are reduced."""
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
        shape = a.shape
        kept = kept_shape(shape, self.axes)
        m = np.max(a.realize_cached_data())
        e = ops.exp(a - Tensor.make_const(np.full(shape, m, dtype=a.dtype)))
        total = ops.summation(e)
        softmax = e / ops.broadcast_to(ops.reshape(total, (1,) * len(shape)), shape)
        return ops.broadcast_to(ops.reshape(out_grad, kept), shape) * softmax


def logsumexp(a, axes=None):
    return LogSumExp(axes)(a)
''',
}
MUST_FAIL = ['test_3_3_rung8_gradient_over_axes_1']
HINT = 'Task 3.3, rung 8 (gradient over axes=1)'
VISIBLE = True
