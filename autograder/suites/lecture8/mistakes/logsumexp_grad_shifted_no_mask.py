"""LogSumExp.gradient computes the shifted softmax with the raw max as the shift: right except on
a slice that is all -inf, where -inf - (-inf) = nan."""
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
        m = np.max(a.realize_cached_data(), axis=reduced_axes(self.axes, len(shape)), keepdims=True)
        e = ops.exp(a - ops.broadcast_to(Tensor.make_const(m), shape))
        total = ops.broadcast_to(ops.reshape(ops.summation(e, self.axes), kept), shape)
        return ops.broadcast_to(ops.reshape(out_grad, kept), shape) * (e / total)


def logsumexp(a, axes=None):
    return LogSumExp(axes)(a)
''',
}
MUST_FAIL = ['test_op_gradient_all_neg_inf_slice']
HINT = 'no mass'
VISIBLE = True
