"""Split.compute always splits along axis 0 (tuple(a)), whatever axis is."""
NOTEBOOK = "06_tensor_tuple"
CELLS = {
    "task6_3_split": '''
class Split(TensorTupleOp):
    def __init__(self, axis):
        self.axis = axis

    def compute(self, a):
        return tuple(a)

    def gradient(self, out_grad, node):
        shape = node.inputs[0].shape
        axis = self.axis % len(shape)
        kept = shape[:axis] + (1,) + shape[axis + 1:]
        grad = None
        for i in range(shape[axis]):
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
MUST_FAIL = ['test_6_3_rung4_compute_along_axis_1_the_columns']
HINT = 'Task 6.3, rung 4 (compute along axis 1: the columns)'
VISIBLE = True
