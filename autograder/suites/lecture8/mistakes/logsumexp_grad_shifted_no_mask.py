"""LogSumExp.gradient computes the shifted softmax with the raw max as the shift: right except on
a slice that is all -inf, where -inf - (-inf) = nan."""
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
        m = np.max(a.realize_cached_data(), axis=reduced_axes(self.axes, len(shape)), keepdims=True)
        e = ops.exp(a - ops.broadcast_to(Tensor.make_const(m), shape))
        total = ops.broadcast_to(ops.reshape(ops.summation(e, self.axes), kept), shape)
        return ops.broadcast_to(ops.reshape(out_grad, kept), shape) * (e / total)


def logsumexp(a, axes=None):
    return LogSumExp(axes)(a)
''',
}
MUST_FAIL = ['test_3_3_rung10_gradient_on_inf_entries_and_a_row_all_inf']
HINT = 'Task 3.3, rung 10 (gradient on -inf entries and a row all -inf)'
VISIBLE = True
