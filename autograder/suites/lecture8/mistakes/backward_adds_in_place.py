"""compute_gradient_of_variables adds each partial adjoint in place (through .data) into the
adjoint it keeps for the node: the first partial a node gets can be out_grad itself (an add
passes its adjoint on unchanged), so the caller's out_grad changes, and with it y.grad."""
NOTEBOOK = "09_backward"
CELLS = {"task9_2_compute_gradient_of_variables": '''
def compute_gradient_of_variables(output_tensor, out_grad):
    adjoints = {output_tensor: out_grad}
    for node in reversed(find_topo_sort([output_tensor])):
        if node not in adjoints:
            continue
        adjoint = adjoints[node]
        node.grad = adjoint
        if node.op is None:
            continue
        for x, partial in zip(node.inputs, node.op.gradient_as_tuple(adjoint, node)):
            if partial is None:
                continue
            if x in adjoints:
                adjoints[x].data = adjoints[x] + partial  # in place: saves a Tensor
            else:
                adjoints[x] = partial
'''}
MUST_FAIL = ['test_9_2_rung9_out_grad_left_as_it_was', 'test_9_2_rung10_a_tuple_node', 'test_backward_random_graphs', 'test_backward_many_paths']
HINT = 'Task 9.2, rung 9 (out_grad left as it was)'
VISIBLE = True
