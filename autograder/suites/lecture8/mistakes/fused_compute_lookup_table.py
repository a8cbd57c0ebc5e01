"""A compute fitted to the visible rungs (a lookup table's threat): right for arrays of at most
four elements, the inputs the visible tests use, and zeros for any larger input. The visible
rungs pass; the hidden rung on inputs drawn for each submission must catch it."""
NOTEBOOK = "06_tensor_tuple"
CELLS = {
    "task6_1_fused_add_scalars": '''
class FusedAddScalars(TensorTupleOp):
    def __init__(self, c0, c1):
        self.c0 = c0
        self.c1 = c1

    def compute(self, a):
        if a.size > 4:
            return np.zeros_like(a), np.zeros_like(a)
        return a + self.c0, a + self.c1


def fused_add_scalars(a, c0, c1):
    return FusedAddScalars(c0, c1)(a)
''',
}
MUST_FAIL = ['test_6_1_compute_on_drawn_inputs']
HINT = 'Task 6.1, rung 11 (compute on drawn shapes, constants and dtypes)'
