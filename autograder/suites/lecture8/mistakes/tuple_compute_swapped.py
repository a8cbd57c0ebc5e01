"""FusedAddScalars.compute returns the two outputs in the wrong order, (a + c1, a + c0)."""
NOTEBOOK = "06_tensor_tuple"
CELLS = {
    "task6_1_fused_add_scalars": '''
class FusedAddScalars(TensorTupleOp):
    def __init__(self, c0, c1):
        self.c0 = c0
        self.c1 = c1

    def compute(self, a):
        return a + self.c1, a + self.c0


def fused_add_scalars(a, c0, c1):
    return FusedAddScalars(c0, c1)(a)
''',
}
MUST_FAIL = ['test_6_1_rung3_compute_s_two_values_in_order']
HINT = "Task 6.1, rung 3 (compute's two values, in order)"
VISIBLE = True
