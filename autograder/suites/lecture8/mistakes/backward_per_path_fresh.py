"""compute_gradient_of_variables clears every .grad first, then passes each partial adjoint on at
once, down every path, adding into .grad where it lands: right values, called twice too, but one
gradient call per path (exponentially many on a ladder)."""
NOTEBOOK = "09_backward"
CELLS = {"task9_2_compute_gradient_of_variables": '''
def compute_gradient_of_variables(output_tensor, out_grad):
    for node in find_topo_sort([output_tensor]):
        node.grad = None
    stack = [(output_tensor, out_grad)]
    while stack:
        node, adjoint = stack.pop()
        node.grad = adjoint if node.grad is None else node.grad + adjoint
        if node.op is None:
            continue
        for x, partial in zip(node.inputs, node.op.gradient_as_tuple(adjoint, node)):
            if partial is not None:
                stack.append((x, partial))
'''}
MUST_FAIL = ['test_backward_many_paths']
HINT = 'Task 9.2, rung 12 (a ladder of 60 adds (10^12 paths))'
VISIBLE = False
