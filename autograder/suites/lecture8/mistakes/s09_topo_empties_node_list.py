"""find_topo_sort uses its caller's list as its stack (stack = node_list, then pop): the order is
right, but node_list, the caller's list, is empty afterwards (an alias, not a copy)."""
NOTEBOOK = "09_backward"
CELLS = {
    "task9_1_find_topo_sort": '''
def find_topo_sort(node_list):
    order, placed = [], set()
    stack = node_list
    done = set()
    while stack:
        node = stack[-1]
        if id(node) in placed:
            stack.pop()
            continue
        pending = [x for x in node.inputs if id(x) not in placed]
        if pending and id(node) not in done:
            done.add(id(node))
            stack.extend(pending)
        else:
            stack.pop()
            placed.add(id(node))
            order.append(node)
    return order
''',
}
MUST_FAIL = ['test_9_1_rung7_node_list_left_as_it_was', 'test_topo_inputs_before_users', 'test_topo_many_paths', 'test_topo_deep_chain']
HINT = 'Task 9.1, rung 7 (node_list left as it was)'
NOT_HINTS = ["uses your find_topo_sort, whose order is wrong here"]
VISIBLE = True
