"""fused_add_scalars passes its constants to the op in the wrong order, FusedAddScalars(c1, c0):
compute is right, but the node's slot 0 holds a + c1."""
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
    return FusedAddScalars(c1, c0)(a)
''',
}
MUST_FAIL = ['test_6_1_rung9_the_node_s_slots_by_indexing']
HINT = "Task 6.1, rung 9 (the node's slots by indexing)"
VISIBLE = True
