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
MUST_FAIL = ["test_topo_several_roots"]
HINT = "changed node_list, its caller's list: work on a copy"
VISIBLE = True
