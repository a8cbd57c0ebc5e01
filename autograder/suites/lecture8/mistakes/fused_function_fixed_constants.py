"""fused_add_scalars ignores its constants and applies FusedAddScalars(3.0, -1.0), the constants of
the visible tests: those pass, any other constants give the wrong node."""
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
    return FusedAddScalars(3.0, -1.0)(a)
''',
}
MUST_FAIL = ['test_6_1_fused_add_scalars_on_drawn_inputs']
HINT = 'Task 6.1, rung 12 (fused_add_scalars on drawn inputs)'
