"""graph_depth measures right, but empties each node's inputs once its depth is known ("to free
memory"): the graph is gone, and measured again with a node on top it gives 1."""
NOTEBOOK = "01_graph_accumulation"
CELLS = {
    "task1_2_graph_depth": '''
def graph_depth(t) -> int:
    depth, stack = {}, [t]
    while stack:
        v = stack[-1]
        todo = [x for x in v.inputs if id(x) not in depth]
        if todo:
            stack.extend(todo)
            continue
        stack.pop()
        depth[id(v)] = 1 + max((depth[id(x)] for x in v.inputs), default=-1)
    for v in list(_nodes(t)):
        v.inputs = ()
    return depth[id(t)]


def _nodes(t):
    seen, stack = {}, [t]
    while stack:
        v = stack.pop()
        if id(v) not in seen:
            seen[id(v)] = v
            stack.extend(v.inputs)
    return seen.values()
''',
}
MUST_FAIL = ['test_depth_leaves_graph_unchanged']
HINT = 'Task 1.2, rung 10 (measured right twice, once with a node on top: the graph left unchanged)'
