"""LogSumExp.gradient computes softmax as exp(a) / sum(exp(a)) without the max shift: right on
ordinary inputs, inf / inf = nan on huge ones."""
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
        e = ops.exp(a)
        softmax = e / ops.broadcast_to(ops.reshape(ops.summation(e, self.axes), kept), a.shape)
        return ops.broadcast_to(ops.reshape(out_grad, kept), a.shape) * softmax


def logsumexp(a, axes=None):
    return LogSumExp(axes)(a)
''',
}
MUST_FAIL = ['test_3_3_rung9_gradient_on_logits_far_beyond_exp_s_range']
HINT = "Task 3.3, rung 9 (gradient on logits far beyond exp's range)"
VISIBLE = True
