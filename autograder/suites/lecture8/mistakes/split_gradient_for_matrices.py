"""Split.gradient written for matrices only: it places rows (axis 0) or, for axis 1, builds the
transpose's rows and transposes back. Right on every 2-D input, the visible tests', but a 3-D
input raises (the slot adjoints are reshaped to one row)."""
NOTEBOOK = "06_tensor_tuple"
CELLS = {
    "task6_3_split": '''
class Split(TensorTupleOp):
    def __init__(self, axis):
        self.axis = axis

    def compute(self, a):
        return tuple(np.moveaxis(a, self.axis, 0))

    def gradient(self, out_grad, node):
        axis = self.axis % 2  # a matrix: rows or columns
        rows = node.inputs[0].shape if axis == 0 else node.inputs[0].shape[::-1]
        grad = None
        for i in range(rows[0]):
            g = out_grad[i]
            mask = np.zeros(rows, dtype=g.dtype)
            mask[i] = 1
            part = ops.broadcast_to(ops.reshape(g, (1, rows[1])), rows) * ndl.Tensor(mask, dtype=g.dtype, requires_grad=False)
            grad = part if grad is None else grad + part
        return grad if axis == 0 else ops.transpose(grad)


def split(a, axis):
    return Split(axis)(a)
''',
}
MUST_FAIL = ['test_6_3_gradient_on_drawn_inputs']
HINT = 'Task 6.3, rung 18 (gradient on drawn shapes, axes and graphs)'
