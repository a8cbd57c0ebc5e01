"""Split.gradient broadcasts each slot's adjoint to a's shape without giving it back the split axis: right for axis 0, a broadcast error for the others."""
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
        axis = self.axis % len(shape)
        grad = None
        for i in range(shape[axis]):
            g = out_grad[i]
            mask = np.zeros(shape, dtype=g.dtype)
            np.moveaxis(mask, axis, 0)[i] = 1
            part = ops.broadcast_to(g, shape) * ndl.Tensor(mask, dtype=g.dtype, requires_grad=False)
            grad = part if grad is None else grad + part
        return grad


def split(a, axis):
    return Split(axis)(a)
''',
}
MUST_FAIL = ['test_6_3_rung13_gradient_along_axis_1_the_columns']
HINT = 'Task 6.3, rung 13 (gradient along axis 1: the columns)'
NOT_HINTS = ['wrong adjoint']
VISIBLE = True
