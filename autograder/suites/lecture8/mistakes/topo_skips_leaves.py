"""find_topo_sort lists only the nodes made by ops, as if a leaf (which has no gradient to
compute) needed no place in the order: a leaf alone gives an empty list."""
NOTEBOOK = "09_backward"
CELLS = {"task9_1_find_topo_sort": '''
def find_topo_sort(node_list):
    order, placed = [], set()
    for root in node_list:
        stack = [(root, False)]
        while stack:
            node, inputs_done = stack.pop()
            if id(node) in placed:
                continue
            if inputs_done:
                placed.add(id(node))
                if node.op is not None:
                    order.append(node)
            else:
                stack.append((node, True))
                stack.extend((x, False) for x in node.inputs if id(x) not in placed)
    return order
'''}
MUST_FAIL = ['test_9_1_rung1_a_leaf', 'test_9_2_rung1_one_op', 'test_9_1_rung8_a_tuple_node', 'test_9_2_rung10_a_tuple_node', 'test_topo_inputs_before_users', 'test_topo_many_paths', 'test_topo_deep_chain', 'test_backward_random_graphs', 'test_backward_many_paths', 'test_backward_deep_chain']
HINT = 'Task 9.1, rung 1 (a leaf)'
VISIBLE = True
