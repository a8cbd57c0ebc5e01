"""A gradient fitted to the visible rungs (a lookup table's threat): it adds the two slots only
when they have two elements, the visible tests' shape, and keeps slot 0 alone otherwise. The
hidden rung on slot adjoints drawn for each submission must catch it."""
NOTEBOOK = "06_tensor_tuple"
CELLS = {
    "task6_2_gradient": '''
def gradient(self, out_grad, node):
    if out_grad[0].shape == (2,):
        return out_grad[0] + out_grad[1]
    return out_grad[0]


FusedAddScalars.gradient = gradient
''',
}
MUST_FAIL = ['test_6_2_gradient_of_drawn_slot_adjoints']
HINT = 'Task 6.2, rung 6 (gradient of drawn slot adjoints, many shapes and constants)'
