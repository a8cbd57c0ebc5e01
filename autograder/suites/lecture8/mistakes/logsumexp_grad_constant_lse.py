"""LogSumExp.gradient as exp(a - lse) with lse, the op's own output, taken as a constant (0 where
it is -inf): the first derivative is right and differentiable, but the second misses the
dependence of lse on a (diag(p) where the Hessian is diag(p) - p p^T)."""
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
        lse = node.realize_cached_data().reshape(kept)
        lse = np.where(np.isneginf(lse), 0, lse)
        softmax = ops.exp(a - ops.broadcast_to(Tensor.make_const(lse), shape))
        return ops.broadcast_to(ops.reshape(out_grad, kept), shape) * softmax


def logsumexp(a, axes=None):
    return LogSumExp(axes)(a)
''',
}
MUST_FAIL = ['test_op_gradient_is_differentiable']
HINT = 'Task 3.3, rung 14 (the second derivative)'
