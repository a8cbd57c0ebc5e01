"""find_topo_sort tells nodes apart by the id of their cached_data: two nodes holding the same
array (two t[0] of one tuple node) are listed once, and the one left out is missing."""
NOTEBOOK = "09_backward"
CELLS = {"task9_1_find_topo_sort": '''
def find_topo_sort(node_list):
    order, placed = [], set()
    for root in node_list:
        stack = [(root, False)]
        while stack:
            node, inputs_done = stack.pop()
            key = id(node.realize_cached_data())
            if key in placed:
                continue
            if inputs_done:
                placed.add(key)
                order.append(node)
            else:
                stack.append((node, True))
                stack.extend((x, False) for x in node.inputs if id(x.realize_cached_data()) not in placed)
    return order
'''}
MUST_FAIL = ['test_9_1_rung8_a_tuple_node', 'test_9_2_rung10_a_tuple_node']
HINT = 'Task 9.1, rung 8 (a tuple node)'
VISIBLE = False
