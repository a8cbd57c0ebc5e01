"""Split.gradient returns the slot adjoints themselves, one per slot (as MakeTensorTuple does),
for an op with one input."""
NOTEBOOK = "06_tensor_tuple"
CELLS = {
    "task6_3_split": '''
class Split(TensorTupleOp):
    def __init__(self, axis):
        self.axis = axis

    def compute(self, a):
        return tuple(np.moveaxis(a, self.axis, 0))

    def gradient(self, out_grad, node):
        return tuple(out_grad[i] for i in range(len(out_grad)))


def split(a, axis):
    return Split(axis)(a)
''',
}
MUST_FAIL = ['test_6_3_rung11_gradient_one_row_used']
HINT = 'Task 6.3, rung 11 (gradient: one row used)'
VISIBLE = True
