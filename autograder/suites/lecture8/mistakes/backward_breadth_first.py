"""compute_gradient_of_variables visits the nodes breadth-first from the output (a queue), not in
reverse topological order: a node used at two depths is visited before its deeper user has sent
its partial adjoint, and passes an incomplete adjoint on."""
NOTEBOOK = "09_backward"
CELLS = {"task9_2_compute_gradient_of_variables": '''
from collections import deque


def compute_gradient_of_variables(output_tensor, out_grad):
    partials = {output_tensor: [out_grad]}
    queue, queued = deque([output_tensor]), {output_tensor}
    while queue:
        node = queue.popleft()
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
            if x not in queued:
                queued.add(x)
                queue.append(x)
'''}
MUST_FAIL = ['test_9_2_rung6_a_node_used_at_two_depths', 'test_backward_random_graphs']
HINT = 'Task 9.2, rung 6 (a node used at two depths)'
VISIBLE = True
