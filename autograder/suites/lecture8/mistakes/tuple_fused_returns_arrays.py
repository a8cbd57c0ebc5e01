"""fused_add_scalars calls compute itself on the input's numpy array and returns its result, a
Python tuple of two numpy arrays: the values are right, but there is no graph node at all."""
NOTEBOOK = "06_tensor_tuple"
CELLS = {
    "task6_1_fused_add_scalars": '''
class FusedAddScalars(TensorTupleOp):
    def __init__(self, c0, c1):
        self.c0 = c0
        self.c1 = c1

    def compute(self, a):
        return a + self.c0, a + self.c1


def fused_add_scalars(a, c0, c1):
    return FusedAddScalars(c0, c1).compute(a.numpy())
''',
}
MUST_FAIL = ['test_6_1_rung8_fused_add_scalars_returns_a_tensortuple']
HINT = 'Task 6.1, rung 8 (fused_add_scalars returns a TensorTuple)'
NOT_HINTS = ["tuple of Tensors"]
VISIBLE = True
