"""Task 6.1 answered trivially with the input: compute returns (a, a) and fused_add_scalars packs
(a, a) with make_tuple. It must earn nothing."""
NOTEBOOK = "06_tensor_tuple"
CELLS = {
    "task6_1_fused_add_scalars": '''
class FusedAddScalars(TensorTupleOp):
    def __init__(self, c0, c1):
        self.c0 = c0
        self.c1 = c1

    def compute(self, a):
        return a, a


def fused_add_scalars(a, c0, c1):
    return ops.make_tuple(a, a)
''',
}
MUST_FAIL = ['test_6_1_rung3_compute_s_two_values_in_order', 'test_6_1_compute_on_drawn_inputs', 'test_6_1_fused_add_scalars_on_drawn_inputs']
HINT = "Task 6.1, rung 3 (compute's two values, in order)"
VISIBLE = True
