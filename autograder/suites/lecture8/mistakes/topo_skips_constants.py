"""find_topo_sort walks only the inputs that require a gradient, as if backward needed no other
node: constants (the lecture model's x and y) are left out of the list."""
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
                order.append(node)
            else:
                stack.append((node, True))
                stack.extend((x, False) for x in node.inputs if x.requires_grad and id(x) not in placed)
    return order
'''}
MUST_FAIL = ['test_topo_inputs_before_users', 'test_topo_deep_chain']
HINT = 'Task 9.1, rung 9 (a diamond, shared nodes, a tuple node, two outputs, random graphs)'
VISIBLE = False
