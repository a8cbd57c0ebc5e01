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
MUST_FAIL = ['test_6_3_rung11_gradient_one_row_used']
HINT = 'Task 6.3, rung 11 (gradient: one row used)'
VISIBLE = True
