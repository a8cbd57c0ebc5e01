"""compute_gradient_of_variables reads partials[node] for every node: a constant, which received only
None from its op's gradient, has no entry: KeyError (student audit, round 3: a generic "missing dict
key" hint)."""
NOTEBOOK = "09_backward"
CELLS = {"task9_2_compute_gradient_of_variables": '''
def compute_gradient_of_variables(output_tensor, out_grad):
    partials = {output_tensor: [out_grad]}
    for node in reversed(find_topo_sort([output_tensor])):
        received = partials[node]
        adjoint = received[0]
        for p in received[1:]:
            adjoint = adjoint + p
        node.grad = adjoint
        if node.op is None:
            continue
        for x, p in zip(node.inputs, node.op.gradient_as_tuple(adjoint, node)):
            if p is not None:
                partials.setdefault(x, []).append(p)
'''}
MUST_FAIL = ['test_9_2_rung4_a_constant_used_twice_no_partial_adjoints', 'test_backward_random_graphs']
HINT = 'Task 9.2, rung 4 (a constant used twice (no partial adjoints))'
VISIBLE = True
