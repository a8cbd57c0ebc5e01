"""Split.gradient stacks the slot adjoints with np.stack and wraps the array in a new Tensor:
right values, no graph (backward(create_graph=True) cannot differentiate it)."""
NOTEBOOK = "06_tensor_tuple"
CELLS = {
    "task6_3_split": '''
class Split(TensorTupleOp):
    def __init__(self, axis):
        self.axis = axis

    def compute(self, a):
        return tuple(np.moveaxis(a, self.axis, 0))

    def gradient(self, out_grad, node):
        slots = [out_grad[i].numpy() for i in range(len(out_grad))]
        return ndl.Tensor(np.stack(slots, self.axis), dtype=slots[0].dtype)


def split(a, axis):
    return Split(axis)(a)
''',
}
MUST_FAIL = ['test_6_3_rung16_the_gradient_is_differentiable']
HINT = 'Task 6.3, rung 16 (the gradient is differentiable)'
VISIBLE = True
