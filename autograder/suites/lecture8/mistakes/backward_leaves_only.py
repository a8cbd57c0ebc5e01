"""compute_gradient_of_variables stores the adjoints of the leaves only, as needle's backward()
does, not every node's as the task's contract asks."""
NOTEBOOK = "09_backward"
CELLS = {
    "task9_2_compute_gradient_of_variables": '''
def compute_gradient_of_variables(output_tensor, out_grad):
    partials = {output_tensor: [out_grad]}
    for node in reversed(find_topo_sort([output_tensor])):
        received = partials.pop(node, [])
        if not received:
            continue
        adjoint = received[0]
        for partial in received[1:]:
            adjoint = adjoint + partial
        if node.op is None:
            node.grad = adjoint
            continue
        for x, partial in zip(node.inputs, node.op.gradient_as_tuple(adjoint, node)):
            if partial is not None:
                partials.setdefault(x, []).append(partial)
''',
}
MUST_FAIL = ['test_9_2_rung3_a_chain_every_node_s_adjoint', 'test_backward_random_graphs', 'test_backward_many_paths', 'test_backward_deep_chain']
HINT = "Task 9.2, rung 3 (a chain, every node's adjoint)"
VISIBLE = True
