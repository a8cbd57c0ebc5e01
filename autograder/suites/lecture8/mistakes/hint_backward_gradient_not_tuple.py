"""compute_gradient_of_variables zips node.inputs with node.op.gradient(...), which gives a single
Tensor for an op with one input: TypeError on a Tensor. The hint names gradient_as_tuple (audit case
c09_cg_gradient_not_tuple)."""
NOTEBOOK = "09_backward"
CELLS = {
    "task9_2_compute_gradient_of_variables": '''
def compute_gradient_of_variables(output_tensor, out_grad):
    """Task 9.2: reverse-mode AD from ``output_tensor``, whose adjoint is ``out_grad``.

    Visits the nodes of your find_topo_sort([output_tensor]) in reverse, so that every partial
    adjoint of a node has arrived before it is visited, and stores in each node's ``.grad`` its
    adjoint: the sum of its partial adjoints (``out_grad`` for the output). Each input of a node
    made by an op receives the partial adjoint node.op.gradient(adjoint, node) gives it
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
        for x, partial in zip(node.inputs, node.op.gradient(adjoint, node)):
            if partial is not None:
                partials.setdefault(x, []).append(partial)
''',
}
MUST_FAIL = ['test_9_2_rung1_one_op', 'test_9_2_rung10_a_tuple_node', 'test_backward_random_graphs']
HINT = 'Task 9.2, rung 1 (one op)'
NOT_HINTS = ['two types that do not go together']
VISIBLE = True
