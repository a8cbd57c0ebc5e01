"""compute_gradient_of_variables adds a node's first two partial adjoints, as if a node had at
most two uses (one per input slot of a binary op): a node used three times loses the third."""
NOTEBOOK = "09_backward"
CELLS = {"task9_2_compute_gradient_of_variables": '''
def compute_gradient_of_variables(output_tensor, out_grad):
    partials = {output_tensor: [out_grad]}
    for node in reversed(find_topo_sort([output_tensor])):
        received = partials.pop(node, [])
        if not received:
            continue
        adjoint = received[0] if len(received) == 1 else received[0] + received[1]
        node.grad = adjoint
        if node.op is None:
            continue
        for x, partial in zip(node.inputs, node.op.gradient_as_tuple(adjoint, node)):
            if partial is not None:
                partials.setdefault(x, []).append(partial)
'''}
MUST_FAIL = ['test_9_2_rung7_a_node_used_three_times', 'test_9_2_rung10_a_tuple_node', 'test_backward_random_graphs']
HINT = 'Task 9.2, rung 7 (a node used three times)'
VISIBLE = True
