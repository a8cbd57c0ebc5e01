"""find_topo_sort checks whether a node is listed only when it is about to list it, not before
walking its inputs again: every node once in the list, but every path walked (exponentially many
on a ladder)."""
NOTEBOOK = "09_backward"
CELLS = {"task9_1_find_topo_sort": '''
def find_topo_sort(node_list):
    order, listed = [], set()
    stack = [(root, False) for root in reversed(node_list)]
    while stack:
        node, inputs_done = stack.pop()
        if inputs_done:
            if id(node) not in listed:
                listed.add(id(node))
                order.append(node)
        else:
            stack.append((node, True))
            stack.extend((x, False) for x in node.inputs)
    return order
'''}
MUST_FAIL = ['test_topo_many_paths', 'test_backward_many_paths']
HINT = 'Task 9.1, rung 10 (a ladder of 90 adds (10^18 paths))'
VISIBLE = False
