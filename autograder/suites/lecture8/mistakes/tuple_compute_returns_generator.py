"""FusedAddScalars.compute returns a generator expression instead of a tuple: it has no length and is used up once read."""
NOTEBOOK = "06_tensor_tuple"
CELLS = {
    "task6_1_fused_add_scalars": '''
class FusedAddScalars(TensorTupleOp):
    def __init__(self, c0, c1):
        self.c0 = c0
        self.c1 = c1

    def compute(self, a):
        return (a + c for c in (self.c0, self.c1))


def fused_add_scalars(a, c0, c1):
    return FusedAddScalars(c0, c1)(a)
''',
}
MUST_FAIL = ['test_6_1_rung1_compute_returns_a_python_tuple']
HINT = 'Task 6.1, rung 1 (compute returns a Python tuple)'
VISIBLE = True
