"""LogSumExp.gradient that normalizes over every axis (one global max, a sum with no axes):
right for axes=None, wrong once only some axes are reduced."""
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
MUST_FAIL = ["test_op_gradient_hand_derived", "test_op_gradient_central_differences"]
HINT = "normalizes over every axis"
VISIBLE = True
