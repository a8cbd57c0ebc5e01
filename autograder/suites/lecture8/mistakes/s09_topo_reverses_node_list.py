"""find_topo_sort reverses node_list in place to walk its roots from the last (node_list.reverse()):
the order is right, but the caller's list comes back reversed."""
NOTEBOOK = "09_backward"
CELLS = {
    "task9_1_find_topo_sort": '''
def find_topo_sort(node_list):
    order, placed = [], set()
    node_list.reverse()
    for root in node_list:
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
''',
}
MUST_FAIL = ['test_9_1_rung7_node_list_left_as_it_was', 'test_topo_inputs_before_users']
HINT = 'Task 9.1, rung 7 (node_list left as it was)'
VISIBLE = True
