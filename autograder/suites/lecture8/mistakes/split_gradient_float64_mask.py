"""Split.gradient builds its 0/1 masks as float64 whatever out_grad's dtype: right for float64
data, a dtype error (needle does not promote) for float32."""
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
            mask = np.zeros(shape)
            np.moveaxis(mask, axis, 0)[i] = 1
            part = ops.broadcast_to(ops.reshape(g, kept), shape) * ndl.Tensor(mask, dtype='float64', requires_grad=False)
            grad = part if grad is None else grad + part
        return grad


def split(a, axis):
    return Split(axis)(a)
''',
}
MUST_FAIL = ['test_6_3_rung15_gradient_float32_stays_float32']
HINT = 'Task 6.3, rung 15 (gradient: float32 stays float32)'
VISIBLE = True
