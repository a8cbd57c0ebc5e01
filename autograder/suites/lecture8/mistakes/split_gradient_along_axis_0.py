"""Split.gradient always puts the slot adjoints back along axis 0, whatever the split axis."""
NOTEBOOK = "06_tensor_tuple"
CELLS = {
    "task6_3_split": '''
class Split(TensorTupleOp):
    def __init__(self, axis):
        self.axis = axis

    def compute(self, a):
        return tuple(np.moveaxis(a, self.axis, 0))

    def gradient(self, out_grad, node):
        shape = node.inputs[0].shape
        axis = 0
        kept = (1,) + out_grad[0].shape
        full = (len(out_grad),) + out_grad[0].shape
        grad = None
        shape = full
        for i in range(shape[0]):
            g = out_grad[i]
            mask = np.zeros(shape, dtype=g.dtype)
            np.moveaxis(mask, axis, 0)[i] = 1
            part = ops.broadcast_to(ops.reshape(g, kept), shape) * ndl.Tensor(mask, dtype=g.dtype, requires_grad=False)
            grad = part if grad is None else grad + part
        return grad


def split(a, axis):
    return Split(axis)(a)
''',
}
MUST_FAIL = ['test_6_3_rung13_gradient_along_axis_1_the_columns']
HINT = 'Task 6.3, rung 13 (gradient along axis 1: the columns)'
VISIBLE = True
