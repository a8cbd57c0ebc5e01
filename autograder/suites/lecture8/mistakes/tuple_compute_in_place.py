"""FusedAddScalars.compute adds c0 into its input array in place (and derives the second output from it)."""
NOTEBOOK = "06_tensor_tuple"
CELLS = {
    "task6_1_fused_add_scalars": '''
class FusedAddScalars(TensorTupleOp):
    def __init__(self, c0, c1):
        self.c0 = c0
        self.c1 = c1

    def compute(self, a):
        first = a
        first += self.c0
        return first, a - self.c0 + self.c1


def fused_add_scalars(a, c0, c1):
    return FusedAddScalars(c0, c1)(a)
''',
}
MUST_FAIL = ['test_6_1_rung5_compute_leaves_a_unchanged']
HINT = 'Task 6.1, rung 5 (compute leaves a unchanged)'
NOT_HINTS = ['in that order']
VISIBLE = True
