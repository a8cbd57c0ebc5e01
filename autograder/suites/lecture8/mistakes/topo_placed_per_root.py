"""find_topo_sort starts a fresh set of placed nodes for each node of node_list: the nodes two
outputs share are listed once per output."""
NOTEBOOK = "09_backward"
CELLS = {"task9_1_find_topo_sort": '''
def find_topo_sort(node_list):
    order = []
    for root in node_list:
        placed = set()
        stack = [(root, False)]
        while stack:
            node, inputs_done = stack.pop()
            if id(node) in placed:
                continue
            if inputs_done:
                placed.add(id(node))
                order.append(node)
            else:
                stack.append((node, True))
                stack.extend((x, False) for x in node.inputs if id(x) not in placed)
    return order
'''}
MUST_FAIL = ['test_9_1_rung6_several_nodes_in_node_list', 'test_topo_inputs_before_users']
HINT = 'Task 9.1, rung 6 (several nodes in node_list)'
VISIBLE = True
