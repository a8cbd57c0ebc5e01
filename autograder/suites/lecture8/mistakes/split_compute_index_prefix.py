"""Split.compute indexes with (slice(None),) * axis + (i,): right for a non-negative axis, but for
axis -1 the prefix is empty and it cuts along axis 0 (a negative axis counts from the end)."""
NOTEBOOK = "06_tensor_tuple"
CELLS = {
    "task6_3_split": '''
class Split(TensorTupleOp):
    def __init__(self, axis):
        self.axis = axis

    def compute(self, a):
        return tuple(a[(slice(None),) * self.axis + (i,)] for i in range(a.shape[self.axis]))

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
MUST_FAIL = ['test_6_3_rung6_compute_along_a_negative_axis']
HINT = 'Task 6.3, rung 6 (compute along a negative axis)'
VISIBLE = True
