"""fused_add_scalars packs two separate results with make_tuple(a + c0, a + c1): a TensorTuple
with the right values, but not a node of the student's op."""
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
    return ops.make_tuple(a + c0, a + c1)
''',
}
MUST_FAIL = ['test_6_1_rung10_the_node_is_your_op_applied_to_a']
HINT = 'Task 6.1, rung 10 (the node is your op applied to a)'
VISIBLE = True
