"""FusedAddScalars.gradient returns the Jacobian alone, ones of a's shape, without the slot
adjoints it multiplies: right while every adjoint that reaches a is one, wrong for any other."""
NOTEBOOK = "06_tensor_tuple"
CELLS = {
    "task6_2_gradient": '''
def gradient(self, out_grad, node):
    a = node.inputs[0]
    return ndl.Tensor(np.ones(a.shape), dtype=a.dtype, requires_grad=False)


FusedAddScalars.gradient = gradient
''',
}
MUST_FAIL = ['test_6_2_rung3_both_slots_adjoints_other_than_ones']
HINT = 'Task 6.2, rung 3 (both slots, adjoints other than ones)'
VISIBLE = True
