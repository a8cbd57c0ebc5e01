"""LogSumExp.compute written out in numpy with the max shift but no guard for a slice that is all
-inf: its max is -inf, a - max is -inf - (-inf) = nan, and the op gives nan where the log-sum-exp
is -inf."""
NOTEBOOK = "03_stable_softmax"
CELLS = {
    "task3_3_logsumexp_op": '''
from needle.ops.shape import kept_shape  # needle's helper: the shape with the reduced axes kept as 1s

class LogSumExp(TensorOp):
    def __init__(self, axes=None):
        self.axes = axes

    def compute(self, a):
        axes = reduced_axes(self.axes, a.ndim)
        m = np.max(a, axis=axes, keepdims=True)
        out = np.log(np.sum(np.exp(a - m), axis=axes, keepdims=True)) + m
        return np.squeeze(out, axis=axes)

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
    return LogSumExp(axes)(a)
''',
}
MUST_FAIL = ["test_3_3_rung5_forward_on_inf_entries_and_a_row_all_inf"]
HINT = "Task 3.3, rung 5 (forward on -inf entries and a row all -inf)"
VISIBLE = True
