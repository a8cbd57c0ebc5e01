"""FusedAddScalars.compute flattens its input (a.ravel() + c): right for a vector, but a matrix
comes out as one long vector instead of keeping its shape."""
NOTEBOOK = "06_tensor_tuple"
CELLS = {
    "task6_1_fused_add_scalars": '''
class FusedAddScalars(TensorTupleOp):
    def __init__(self, c0, c1):
        self.c0 = c0
        self.c1 = c1

    def compute(self, a):
        flat = a.ravel()
        return flat + self.c0, flat + self.c1


def fused_add_scalars(a, c0, c1):
    return FusedAddScalars(c0, c1)(a)
''',
}
MUST_FAIL = ['test_6_1_rung4_a_2_d_input']
HINT = 'Task 6.1, rung 4 (a 2-D input)'
VISIBLE = True
