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
MUST_FAIL = ["test_backward_lecture_model", "test_backward_shared_node", "test_backward_diamond",
             "test_backward_random_graphs", "test_backward_tensor_tuple_graph", "test_backward_many_paths"]
HINT = "the sum of the partial adjoints from every use"
VISIBLE = True
