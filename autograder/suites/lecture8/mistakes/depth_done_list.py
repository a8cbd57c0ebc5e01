"""graph_depth that keeps the nodes it is done with in a list (and their depths in a parallel
list): every `in` and `.index` compares with all the nodes done so far, so the walk is quadratic
(right on small graphs, far too slow on the 100,000-step chain)."""
NOTEBOOK = "01_graph_accumulation"
CELLS = {
    "task1_2_graph_depth": '''
def graph_depth(t) -> int:
    done, depths = [], []
    stack = [(t, False)]
    while stack:
        node, inputs_done = stack.pop()
        if node in done:
            continue
        if not node.inputs:
            done.append(node)
            depths.append(0)
        elif inputs_done:
            done.append(node)
            depths.append(1 + max(depths[done.index(x)] for x in node.inputs))
        else:
            stack.append((node, True))
            stack.extend((x, False) for x in node.inputs if x not in done)
    return depths[done.index(t)]
''',
}
MUST_FAIL = ['test_depth_deep_chain']
HINT = 'Task 1.2, rung 9 (a chain about 100,000 updates long, in linear time)'
