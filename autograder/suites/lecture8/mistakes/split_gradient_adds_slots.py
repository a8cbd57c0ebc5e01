"""Split.gradient copied from FusedAddScalars: it adds the slot adjoints, giving one slice's
shape instead of a's."""
NOTEBOOK = "06_tensor_tuple"
CELLS = {
    "task6_3_split": '''
class Split(TensorTupleOp):
    def __init__(self, axis):
        self.axis = axis

    def compute(self, a):
        return tuple(np.moveaxis(a, self.axis, 0))

    def gradient(self, out_grad, node):
        grad = out_grad[0]
        for i in range(1, len(out_grad)):
            grad = grad + out_grad[i]
        return grad


def split(a, axis):
    return Split(axis)(a)
''',
}
MUST_FAIL = ['test_split_gradient_of_given_slot_adjoints', 'test_split_gradient_by_hand', 'test_split_gradient_unused_slots', 'test_split_gradient_central_differences', 'test_split_gradient_is_differentiable', 'test_split_negative_axis']
HINT = 'adds the slot adjoints'
VISIBLE = True
