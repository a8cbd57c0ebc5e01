"""Split.compute cuts with np.split and drops the split axis with np.squeeze(piece), without an
axis: every other axis of size 1 goes too (a (4, 1, 3) array split along axis 0 gives slices of
shape (3,) instead of (1, 3))."""
NOTEBOOK = "06_tensor_tuple"
CELLS = {
    "task6_3_split": '''
class Split(TensorTupleOp):
    def __init__(self, axis):
        self.axis = axis

    def compute(self, a):
        return tuple(np.squeeze(piece) for piece in np.split(a, a.shape[self.axis], axis=self.axis))

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
MUST_FAIL = ['test_6_3_rung7_another_axis_of_size_1_kept']
HINT = 'Task 6.3, rung 7 (another axis of size 1 kept)'
VISIBLE = True
