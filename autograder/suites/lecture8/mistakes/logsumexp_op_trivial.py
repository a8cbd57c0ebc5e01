"""Trivial answer to Task 3.3: the forward is 0 and the gradient is 0, whatever the input."""
NOTEBOOK = "03_stable_softmax"
CELLS = {
    "task3_3_logsumexp_op": '''
class LogSumExp(TensorOp):
    """Task 3.3"""

    def __init__(self, axes=None):
        self.axes = axes

    def compute(self, a):
        return np.zeros_like(np.sum(a, axis=reduced_axes(self.axes, a.ndim)))

    def gradient(self, out_grad, node):
        a = node.inputs[0]
        return Tensor.make_const(np.zeros(a.shape, dtype=a.dtype))


def logsumexp(a, axes=None):
    return LogSumExp(axes)(a)
''',
}
MUST_FAIL = ['task:3.3']
HINT = 'Task 3.3, rung 2 (forward on one slice)'
VISIBLE = True
