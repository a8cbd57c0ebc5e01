"""compute_gradient_of_variables orders the nodes with a recursive walk of its own: right on small
graphs, a RecursionError on a deep chain."""
NOTEBOOK = "09_backward"
CELLS = {
    "task9_2_compute_gradient_of_variables": '''
def compute_gradient_of_variables(output_tensor, out_grad):
    order, seen = [], set()

    def visit(node):
        if id(node) in seen:
            return
        seen.add(id(node))
        for x in node.inputs:
            visit(x)
        order.append(node)

    visit(output_tensor)
    partials = {output_tensor: [out_grad]}
    for node in reversed(order):
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
MUST_FAIL = ['test_backward_deep_chain']
HINT = 'Task 9.2, rung 13 (a chain of 5,000 naive updates)'
VISIBLE = False
