"""Split.gradient places only the first slot's adjoint (the loop returns after one slot)."""
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
        kept = shape[:axis] + (1,) + shape[axis + 1:]
        grad = None
        for i in range(shape[axis]):
            g = out_grad[i]
            mask = np.zeros(shape, dtype=g.dtype)
            np.moveaxis(mask, axis, 0)[i] = 1
            part = ops.broadcast_to(ops.reshape(g, kept), shape) * ndl.Tensor(mask, dtype=g.dtype, requires_grad=False)
            return part


def split(a, axis):
    return Split(axis)(a)
''',
}
MUST_FAIL = ['test_6_3_rung12_gradient_every_row_each_its_own_adjoint']
HINT = 'Task 6.3, rung 12 (gradient: every row, each its own adjoint)'
VISIBLE = True
