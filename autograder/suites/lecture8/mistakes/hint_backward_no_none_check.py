"""compute_gradient_of_variables keeps the None partial adjoints gradient_as_tuple gives for an
input that needs none, then adds them: `adjoint + partial` with None. The hint says an operand is
None (and why it may be), without guessing a forgotten return (audit case c09_cg_no_none_check)."""
NOTEBOOK = "09_backward"
CELLS = {
    "task9_2_compute_gradient_of_variables": '''
def compute_gradient_of_variables(output_tensor, out_grad):
    """Task 9.2: reverse-mode AD from ``output_tensor``, whose adjoint is ``out_grad``.

    Visits the nodes of your find_topo_sort([output_tensor]) in reverse, so that every partial
    adjoint of a node has arrived before it is visited, and stores in each node's ``.grad`` its
    adjoint: the sum of its partial adjoints (``out_grad`` for the output). Each input of a node
    made by an op receives the partial adjoint node.op.gradient_as_tuple(adjoint, node) gives it
    (None: no adjoint). Returns None.
    """
    partials = {output_tensor: [out_grad]}  # node -> the partial adjoints it received so far
    for node in reversed(find_topo_sort([output_tensor])):
        received = partials.pop(node, [])
        if not received:
            continue  # every path from the output to it ends in a None: no adjoint
        adjoint = received[0]
        for partial in received[1:]:
            adjoint = adjoint + partial
        node.grad = adjoint
        if node.op is None:
            continue
        for x, partial in zip(node.inputs, node.op.gradient_as_tuple(adjoint, node)):
            partials.setdefault(x, []).append(partial)
''',
}
MUST_FAIL = ['test_9_2_rung4_a_constant_used_twice_no_partial_adjoints', 'test_backward_random_graphs']
HINT = 'Task 9.2, rung 4 (a constant used twice (no partial adjoints))'
NOT_HINTS = ['forgot its return']
VISIBLE = True
