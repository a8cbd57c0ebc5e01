"""A gradient fitted to the visible rungs, whose op is always applied to a leaf: it adds the slots
when a is a leaf and keeps slot 0 alone when a was made by another op. The hidden rung's chained
graphs must catch it."""
NOTEBOOK = "06_tensor_tuple"
CELLS = {
    "task6_2_gradient": '''
def gradient(self, out_grad, node):
    if node.inputs[0].op is None:
        return out_grad[0] + out_grad[1]
    return out_grad[0]


FusedAddScalars.gradient = gradient
''',
}
MUST_FAIL = ['test_6_2_backward_through_drawn_graphs']
HINT = 'Task 6.2, rung 7 (backward through drawn graphs: one slot, reused slots, chains, float32, second order)'
