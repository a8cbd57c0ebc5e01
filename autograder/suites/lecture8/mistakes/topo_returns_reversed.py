"""find_topo_sort that builds the right post-order and then returns it reversed (users first, as
backward will visit them): every node before its inputs."""
NOTEBOOK = "09_backward"
CELLS = {
    "task9_1_find_topo_sort": '''
def find_topo_sort(node_list):
    order, seen = [], set()
    for root in node_list:
        stack = [(root, False)]
        while stack:
            node, done = stack.pop()
            if done:
                order.append(node)
            elif id(node) not in seen:
                seen.add(id(node))
                stack.append((node, True))
                stack.extend((x, False) for x in node.inputs if id(x) not in seen)
    return order[::-1]
''',
}
MUST_FAIL = ['test_9_1_rung2_a_chain', 'test_9_2_rung1_one_op', 'test_9_2_rung10_a_tuple_node', 'test_topo_inputs_before_users', 'test_topo_many_paths', 'test_topo_deep_chain', 'test_backward_random_graphs', 'test_backward_many_paths', 'test_backward_deep_chain']
HINT = 'Task 9.1, rung 2 (a chain)'
VISIBLE = True
