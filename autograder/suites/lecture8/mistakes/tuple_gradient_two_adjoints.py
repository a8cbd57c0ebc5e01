"""FusedAddScalars.gradient returns (out_grad[0], out_grad[1]), one adjoint per output, for an op
with one input (needle's backward refuses a wrong number of adjoints)."""
NOTEBOOK = "06_tensor_tuple"
CELLS = {
    "task6_2_gradient": '''
def gradient(self, out_grad, node):
    return out_grad[0], out_grad[1]


FusedAddScalars.gradient = gradient
''',
}
MUST_FAIL = ['test_6_2_rung1_slot_0_used_alone']
HINT = 'Task 6.2, rung 1 (slot 0 used alone)'
VISIBLE = True
