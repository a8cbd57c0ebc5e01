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
MUST_FAIL = ["test_topo_leaf_and_small_graph", "test_topo_shared_nodes_once", "test_topo_several_roots",
             "test_topo_many_paths", "test_backward_many_paths"]
HINT = "remember the nodes you visited"
VISIBLE = True
