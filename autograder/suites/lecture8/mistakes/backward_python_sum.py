"""compute_gradient_of_variables adds a node's partial adjoints with Python's sum(...), which starts
from the number 0: fine for Tensors (0 + Tensor is a Tensor), a TypeError for a TensorTuple node."""
NOTEBOOK = "09_backward"
CELLS = {
    "task9_2_compute_gradient_of_variables": '''
def compute_gradient_of_variables(output_tensor, out_grad):
    partials = {output_tensor: [out_grad]}
    for node in reversed(find_topo_sort([output_tensor])):
        received = partials.pop(node, [])
        if not received:
            continue
        node.grad = sum(received)
        if node.op is None:
            continue
        for x, partial in zip(node.inputs, node.op.gradient_as_tuple(node.grad, node)):
            if partial is not None:
                partials.setdefault(x, []).append(partial)
''',
}
MUST_FAIL = ['test_9_2_rung10_a_tuple_node', 'test_backward_random_graphs']
HINT = 'Task 9.2, rung 10 (a tuple node)'
VISIBLE = False
