"""logsumexp(a, axes) that makes its op without the axes (LogSumExp()(a)): the op itself is right,
but every call reduces all the axes, whatever axes says (once blamed on compute's keepdims)."""
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
        empty = np.isneginf(m)
        m = np.where(empty, 0, m)
        e = ops.exp(a - ops.broadcast_to(Tensor.make_const(m), shape))
        total = ops.reshape(ops.summation(e, self.axes), kept)
        total = total + Tensor.make_const(empty.astype(total.dtype))
        softmax = e / ops.broadcast_to(total, shape)
        return ops.broadcast_to(ops.reshape(out_grad, kept), shape) * softmax



def logsumexp(a, axes=None):
    return LogSumExp()(a)
''',
}
MUST_FAIL = ['test_op_forward_axes', 'test_op_forward_stable', 'test_op_gradient_hand_derived', 'test_op_gradient_central_differences', 'test_op_gradient_huge_inputs', 'test_op_gradient_all_neg_inf_slice']
HINT = 'ignores its axes'
NOT_HINTS = ['keepdims']
VISIBLE = True
