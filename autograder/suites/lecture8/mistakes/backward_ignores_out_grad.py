"""compute_gradient_of_variables starts from ones, as for a scalar loss, instead of out_grad."""
NOTEBOOK = "09_backward"
CELLS = {
    "task9_2_compute_gradient_of_variables": '''
def compute_gradient_of_variables(output_tensor, out_grad):
    ones = ndl.Tensor(np.ones(output_tensor.shape), dtype=output_tensor.dtype, requires_grad=False)
    partials = {output_tensor: [ones]}
    for node in reversed(find_topo_sort([output_tensor])):
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
MUST_FAIL = ['test_9_2_rung2_out_grad_other_than_one', 'test_9_2_rung10_a_tuple_node', 'test_backward_random_graphs', 'test_backward_deep_chain']
HINT = 'Task 9.2, rung 2 (out_grad other than one)'
VISIBLE = True
