"""FusedAddScalars.compute adds the constants as numpy float64 scalars: float32 data comes out
float64 (NumPy 2 promotes by type). 6.1 names it; 6.2's visible test, run on that forward, blamed
the gradient's dtype (student audit, round 2): it now says Task 6.1 first."""
NOTEBOOK = "06_tensor_tuple"
CELLS = {
    "task6_1_fused_add_scalars": '''
class FusedAddScalars(TensorTupleOp):
    def __init__(self, c0, c1):
        self.c0 = c0
        self.c1 = c1

    def compute(self, a):
        return np.add(a, np.float64(self.c0)), np.add(a, np.float64(self.c1))


def fused_add_scalars(a, c0, c1):
    return FusedAddScalars(c0, c1)(a)
''',
}
MUST_FAIL = ['test_6_1_rung6_float32_stays_float32']
HINT = 'Task 6.1, rung 6 (float32 stays float32)'
VISIBLE = True
