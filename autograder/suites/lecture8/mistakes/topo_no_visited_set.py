"""find_topo_sort in post-order without remembering the nodes it placed: a node reached along
several paths is listed once per path (exponentially often on a ladder)."""
NOTEBOOK = "09_backward"
CELLS = {
    "task9_1_find_topo_sort": '''
def find_topo_sort(node_list):
    order = []
    stack = [(root, False) for root in reversed(node_list)]
    while stack:
        node, inputs_done = stack.pop()
        if inputs_done:
            order.append(node)
        else:
            stack.append((node, True))
            stack.extend((x, False) for x in node.inputs)
    return order
''',
}
MUST_FAIL = ['test_9_1_rung3_a_node_used_twice', 'test_9_2_rung6_a_node_used_at_two_depths', 'test_9_1_rung8_a_tuple_node', 'test_9_2_rung10_a_tuple_node', 'test_topo_inputs_before_users', 'test_topo_many_paths', 'test_backward_random_graphs', 'test_backward_many_paths']
HINT = 'Task 9.1, rung 3 (a node used twice)'
VISIBLE = True
