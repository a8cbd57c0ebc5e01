"""graph_depth that counts the nodes on the longest path instead of the ops: a leaf gets
depth 1, every depth is one too high."""
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
            depth[id(node)] = 1
        elif inputs_done:
            depth[id(node)] = 1 + max(depth[id(x)] for x in node.inputs)
        else:
            stack.append((node, True))
            stack.extend((x, False) for x in node.inputs)
    return depth[id(t)]
''',
}
MUST_FAIL = ['task:1.2']
HINT = 'Task 1.2, rung 1 (a leaf)'
VISIBLE = True
