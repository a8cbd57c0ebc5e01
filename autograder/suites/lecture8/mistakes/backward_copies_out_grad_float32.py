"""compute_gradient_of_variables copies out_grad into a new Tensor (so as not to touch the
caller's) with Tensor's default dtype, float32: a float64 graph gets adjoints of the wrong dtype,
or an error where they meet float64 values."""
NOTEBOOK = "09_backward"
CELLS = {"task9_2_compute_gradient_of_variables": '''
def compute_gradient_of_variables(output_tensor, out_grad):
    partials = {output_tensor: [ndl.Tensor(out_grad.numpy(), requires_grad=False)]}
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
'''}
MUST_FAIL = ['test_backward_random_graphs']
HINT = "Task 9.2, rung 11 (graphs by hand (the lecture's model, three uses, called twice, a diamond, a tuple node), random graphs)"
VISIBLE = False
