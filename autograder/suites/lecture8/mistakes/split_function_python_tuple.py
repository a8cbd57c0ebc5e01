"""split returns a Python tuple of the slices as separate Tensors (made by the op's indexing)
instead of the TensorTuple node itself."""
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
            grad = part if grad is None else grad + part
        return grad


def split(a, axis):
    t = Split(axis)(a)
    return tuple(t[i] for i in range(len(t)))
''',
}
MUST_FAIL = ['test_6_3_rung9_split_returns_your_op_s_node_on_a']
HINT = "Task 6.3, rung 9 (split returns your op's node on a)"
VISIBLE = True
