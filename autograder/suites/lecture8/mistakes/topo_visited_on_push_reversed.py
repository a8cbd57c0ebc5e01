"""find_topo_sort (pushing each node's inputs in reverse) marks a node visited when it pushes it, not when it lists it: on y = x + 2x, x is
skipped when 2x reaches it (already pushed) and 2x is listed before its input x. The random graphs
caught it for 4 submission seeds in 20 (student audit, round 3)."""
NOTEBOOK = "09_backward"
CELLS = {"task9_1_find_topo_sort": '''
def find_topo_sort(node_list):
    order = []
    visited = set()
    for root in node_list:
        if id(root) in visited:
            continue
        visited.add(id(root))
        stack = [(root, False)]
        while stack:
            node, done = stack.pop()
            if done:
                order.append(node)
                continue
            stack.append((node, True))
            for x in reversed(node.inputs):
                if id(x) not in visited:
                    visited.add(id(x))
                    stack.append((x, False))
    return order
'''}
MUST_FAIL = ['test_9_1_rung5_the_same_inputs_swapped', 'test_9_2_rung7_a_node_used_three_times', 'test_topo_inputs_before_users', 'test_topo_many_paths', 'test_backward_random_graphs', 'test_backward_many_paths']
HINT = 'Task 9.1, rung 5 (the same, inputs swapped)'
VISIBLE = True
