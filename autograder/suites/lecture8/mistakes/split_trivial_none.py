"""Task 6.3 left as `pass` bodies: compute, gradient and split return None. It must earn nothing."""
NOTEBOOK = "06_tensor_tuple"
CELLS = {
    "task6_3_split": '''
class Split(TensorTupleOp):
    def __init__(self, axis):
        self.axis = axis

    def compute(self, a):
        return None

    def gradient(self, out_grad, node):
        return None


def split(a, axis):
    return None
''',
}
MUST_FAIL = ['task:6.3', 'test_6_3_rung1_compute_returns_a_python_tuple']
HINT = 'Task 6.3, rung 1 (compute returns a Python tuple)'
VISIBLE = True
