"""compute_gradient_of_variables that multiplies each partial adjoint from op.gradient by the
node's adjoint again (the chain rule applied twice): wrong values on scalar graphs, and a shape
or type error where the shapes differ or a node is a TensorTuple (audit case w09_bw_chain_twice)."""
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
        node.grad = adjoint
        if node.op is None:
            continue
        for x, partial in zip(node.inputs, node.op.gradient_as_tuple(adjoint, node)):
            if partial is not None:
                partials.setdefault(x, []).append(partial * adjoint)
''',
}
MUST_FAIL = ['test_9_2_rung2_out_grad_other_than_one', 'test_9_2_rung10_a_tuple_node', 'test_backward_random_graphs', 'test_backward_many_paths', 'test_backward_deep_chain']
HINT = 'Task 9.2, rung 2 (out_grad other than one)'
VISIBLE = True
