"""LogSumExp.gradient that computes the softmax in numpy (with Task 3.1's softmax_stable) and
returns a numpy array: right numbers, but not a needle Tensor, so needle's backward cannot use it
(once "your code raised AttributeError" with no line, and a second, different message)."""
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
        a = node.inputs[0].realize_cached_data()
        kept = kept_shape(a.shape, self.axes)
        if self.axes is None:
            p = softmax_stable(a.reshape(-1)).reshape(a.shape)
        else:
            p = softmax_stable(a, axis=reduced_axes(self.axes, a.ndim))
        return out_grad.realize_cached_data().reshape(kept) * p


def logsumexp(a, axes=None):
    return LogSumExp(axes)(a)
''',
}
MUST_FAIL = ["test_3_3_rung6_gradient_on_one_slice", "test_op_gradient"]
HINT = 'Task 3.3, rung 6 (gradient on one slice)'
VISIBLE = True
