"""FusedAddScalars.gradient scales each slot's adjoint by its constant, c0 * g0 + c1 * g1: the
Jacobian of a * c_k taken for that of a + c_k (the slip the derivation invites when c_k is read
as the thing that moves the output)."""
NOTEBOOK = "06_tensor_tuple"
CELLS = {
    "task6_2_gradient": '''
def gradient(self, out_grad, node):
    return out_grad[0] * self.c0 + out_grad[1] * self.c1


FusedAddScalars.gradient = gradient
''',
}
MUST_FAIL = ['test_6_2_rung1_slot_0_used_alone']
HINT = 'Task 6.2, rung 1 (slot 0 used alone)'
NOT_HINTS = ['only one slot', 'multiplies the slot']
VISIBLE = True
