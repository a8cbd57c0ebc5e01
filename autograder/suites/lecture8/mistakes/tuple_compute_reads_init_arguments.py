"""compute reads c0 and c1, the arguments of __init__, instead of what __init__ stored on the op:
a NameError, told as "a name not defined in this notebook (run the cell that defines it)" before
(student audit, round 3)."""
NOTEBOOK = "06_tensor_tuple"
CELLS = {"task6_1_fused_add_scalars": '''
class FusedAddScalars(TensorTupleOp):
    def __init__(self, c0, c1):
        self.c0 = c0
        self.c1 = c1

    def compute(self, a):
        return a + c0, a + c1


def fused_add_scalars(a, c0, c1):
    return FusedAddScalars(c0, c1)(a)
'''}
MUST_FAIL = ['test_6_1_rung1_compute_returns_a_python_tuple']
HINT = 'Task 6.1, rung 1 (compute returns a Python tuple)'
VISIBLE = True
