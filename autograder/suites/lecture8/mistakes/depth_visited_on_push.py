"""graph_depth marks a node visited when it pushes it: on y = x + 2x, x is skipped when 2x reaches
it, and 2x's depth is computed before x's: KeyError (student audit, round 3: a generic "missing
dict key" hint, and the visible tests passed it)."""
NOTEBOOK = "01_graph_accumulation"
CELLS = {"task1_2_graph_depth": '''
def graph_depth(t) -> int:
    depth = {}
    visited = {id(t)}
    stack = [(t, False)]
    while stack:
        node, done = stack.pop()
        if done:
            depth[id(node)] = 1 + max(depth[id(x)] for x in node.inputs) if node.inputs else 0
            continue
        stack.append((node, True))
        for x in node.inputs:
            if id(x) not in visited:
                visited.add(id(x))
                stack.append((x, False))
    return depth[id(t)]
'''}
MUST_FAIL = ['test_depth_leaves_graph_unchanged']
HINT = 'Task 1.2, rung 4 (an input of two nodes)'
VISIBLE = True
