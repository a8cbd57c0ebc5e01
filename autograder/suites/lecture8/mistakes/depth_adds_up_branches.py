"""graph_depth that adds up the depths of all inputs instead of taking the largest: right on a
chain with constants (they add 0), too deep wherever two branches join."""
NOTEBOOK = "01_graph_accumulation"
CELLS = {
    "task1_2_graph_depth": '''
def graph_depth(t) -> int:
    depth = {}
    stack = [(t, False)]
    while stack:
        node, inputs_done = stack.pop()
        if id(node) in depth:
            continue
        if not node.inputs:
            depth[id(node)] = 0
        elif inputs_done:
            depth[id(node)] = 1 + sum(depth[id(x)] for x in node.inputs)
        else:
            stack.append((node, True))
            stack.extend((x, False) for x in node.inputs)
    return depth[id(t)]
''',
}
MUST_FAIL = ['test_depth_leaves_graph_unchanged']
HINT = 'Task 1.2, rung 6 (a node used twice)'
VISIBLE = True
