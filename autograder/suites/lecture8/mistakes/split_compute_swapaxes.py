"""Split.compute swaps the split axis to the front with np.swapaxes(a, 0, axis): right for 2-D
arrays and for axis 0 or 1 of a 3-D one, but for the last axis of a 3-D array each slice comes
out transposed (its other two axes swapped)."""
NOTEBOOK = "06_tensor_tuple"
CELLS = {
    "task6_3_split": '''
class Split(TensorTupleOp):
    def __init__(self, axis):
        self.axis = axis

    def compute(self, a):
        return tuple(np.swapaxes(a, 0, self.axis))

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
MUST_FAIL = ['test_6_3_rung5_compute_along_the_last_axis_of_a_3_d_array']
HINT = 'Task 6.3, rung 5 (compute along the last axis of a 3-D array)'
NOT_HINTS = ["gradient", "adjoint"]
VISIBLE = True
