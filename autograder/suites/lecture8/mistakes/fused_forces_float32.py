"""FusedAddScalars.compute forces float32 (np.add(a, c, dtype=np.float32)): float64 data comes
out float32. Named as a forced dtype (it read "float32 must stay float32", the opposite), and
caught by 6.1's visible test before 6.2's gradient check meets the float32 outputs."""
NOTEBOOK = "06_tensor_tuple"
CELLS = {
    "task6_1_fused_add_scalars": '''
class FusedAddScalars(TensorTupleOp):
    def __init__(self, c0, c1):
        self.c0 = c0
        self.c1 = c1

    def compute(self, a):
        return np.add(a, self.c0, dtype=np.float32), np.add(a, self.c1, dtype=np.float32)


def fused_add_scalars(a, c0, c1):
    return FusedAddScalars(c0, c1)(a)
''',
}
MUST_FAIL = ['test_6_1_rung7_float64_stays_float64']
HINT = 'Task 6.1, rung 7 (float64 stays float64)'
VISIBLE = True
