"""Split.compute takes each slice as a contraction with a row of np.eye (float64): the right values,
but float32 data comes out float64."""
NOTEBOOK = "06_tensor_tuple"
CELLS = {
    "task6_3_split": '''
class Split(TensorTupleOp):
    def __init__(self, axis):
        self.axis = axis

    def compute(self, a):
        axis = self.axis % a.ndim
        n = a.shape[axis]
        return tuple(np.tensordot(np.eye(n)[i], a, axes=([0], [axis])) for i in range(n))

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
MUST_FAIL = ['test_6_3_rung8_float32_stays_float32']
HINT = 'Task 6.3, rung 8 (float32 stays float32)'
VISIBLE = True
