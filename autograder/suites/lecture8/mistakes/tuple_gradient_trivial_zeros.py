"""Task 6.2 answered trivially: the gradient is zeros of a's shape (built from out_grad, so the
dtype and the graph are right). It must earn nothing."""
NOTEBOOK = "06_tensor_tuple"
CELLS = {
    "task6_2_gradient": '''
def gradient(self, out_grad, node):
    return out_grad[0] * 0.0


FusedAddScalars.gradient = gradient
''',
}
MUST_FAIL = ['test_6_2_rung1_slot_0_used_alone', 'test_6_2_gradient_of_drawn_slot_adjoints', 'test_6_2_backward_through_drawn_graphs']
HINT = 'Task 6.2, rung 1 (slot 0 used alone)'
VISIBLE = True
