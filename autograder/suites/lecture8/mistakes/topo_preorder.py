"""find_topo_sort reuses notebook 01's count walk: each node is listed when first reached, so
before its inputs (pre-order), and backward over its reverse visits leaves first."""
NOTEBOOK = "09_backward"
CELLS = {
    "task9_1_find_topo_sort": '''
def find_topo_sort(node_list):
    order, seen = [], set()
    stack = list(node_list)
    while stack:
        node = stack.pop()
        if id(node) in seen:
            continue
        seen.add(id(node))
        order.append(node)
        stack.extend(node.inputs)
    return order
''',
}
MUST_FAIL = ['test_9_1_rung2_a_chain', 'test_9_2_rung1_one_op', 'test_9_2_rung10_a_tuple_node', 'test_topo_inputs_before_users', 'test_topo_many_paths', 'test_topo_deep_chain', 'test_backward_random_graphs', 'test_backward_many_paths', 'test_backward_deep_chain']
HINT = 'Task 9.1, rung 2 (a chain)'
VISIBLE = True
