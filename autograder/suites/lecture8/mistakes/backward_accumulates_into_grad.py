"""compute_gradient_of_variables that adds each partial adjoint straight onto the input's .grad
(and reads a node's adjoint back from .grad): right on a fresh graph, wrong on a second call, where
the first call's .grad is added in (dlsys's contract stores each node's adjoint)."""
NOTEBOOK = "09_backward"
CELLS = {
    "task9_2_compute_gradient_of_variables": '''
def compute_gradient_of_variables(output_tensor, out_grad):
    output_tensor.grad = out_grad
    for node in reversed(find_topo_sort([output_tensor])):
        if node.grad is None or node.op is None:
            continue
        for x, g in zip(node.inputs, node.op.gradient_as_tuple(node.grad, node)):
            if g is None:
                continue
            x.grad = g if x.grad is None else x.grad + g
''',
}
MUST_FAIL = ['test_9_2_rung8_called_twice', 'test_backward_random_graphs']
HINT = 'Task 9.2, rung 8 (called twice)'
VISIBLE = True
