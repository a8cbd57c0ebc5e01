"""compute_gradient_of_variables stores each partial adjoint in place of the previous one: a node
used several times keeps only the last partial adjoint it received, not their sum."""
NOTEBOOK = "09_backward"
CELLS = {
    "task9_2_compute_gradient_of_variables": '''
def compute_gradient_of_variables(output_tensor, out_grad):
    adjoints = {output_tensor: out_grad}
    for node in reversed(find_topo_sort([output_tensor])):
        adjoint = adjoints.pop(node, None)
        if adjoint is None:
            continue
        node.grad = adjoint
        if node.op is None:
            continue
        for x, partial in zip(node.inputs, node.op.gradient_as_tuple(adjoint, node)):
            if partial is not None:
                adjoints[x] = partial
''',
}
MUST_FAIL = ['test_9_2_rung5_a_node_used_twice', 'test_9_2_rung10_a_tuple_node', 'test_backward_random_graphs', 'test_backward_many_paths']
HINT = 'Task 9.2, rung 5 (a node used twice)'
VISIBLE = True
