"""compute_gradient_of_variables calls find_topo_sort(output_tensor), not find_topo_sort([output_tensor]):
the student's walk then iterates over a Tensor and fails inside Task 9.1's cell."""
NOTEBOOK = "09_backward"
CELLS = {
    "task9_2_compute_gradient_of_variables": '''
def compute_gradient_of_variables(output_tensor, out_grad):
    partials = {output_tensor: [out_grad]}
    for node in reversed(find_topo_sort(output_tensor)):
        received = partials.pop(node, [])
        if not received:
            continue
        adjoint = received[0]
        for partial in received[1:]:
            adjoint = adjoint + partial
        node.grad = adjoint
        if node.op is None:
            continue
        for x, partial in zip(node.inputs, node.op.gradient_as_tuple(adjoint, node)):
            if partial is not None:
                partials.setdefault(x, []).append(partial)
''',
}
MUST_FAIL = ['test_9_2_rung1_one_op', 'test_9_2_rung10_a_tuple_node', 'test_backward_random_graphs', 'test_backward_many_paths', 'test_backward_deep_chain']
HINT = 'Task 9.2, rung 1 (one op)'
VISIBLE = True
