"""graph_depth that visits each node before its inputs (the order of a search from t, not
reversed) and reads a depth not yet computed as 0 with .get: t, first, gets depth 1."""
NOTEBOOK = "01_graph_accumulation"
CELLS = {
    "task1_2_graph_depth": '''
def graph_depth(t) -> int:
    order, seen, stack = [], set(), [t]
    while stack:
        node = stack.pop()
        if id(node) in seen:
            continue
        seen.add(id(node))
        order.append(node)
        stack.extend(node.inputs)
    depth = {}
    for node in order:
        depth[id(node)] = 1 + max(depth.get(id(x), 0) for x in node.inputs) if node.inputs else 0
    return depth[id(t)]
''',
}
MUST_FAIL = ['test_depth_deep_chain']
HINT = 'Task 1.2, rung 3 (two ops in a row)'
VISIBLE = True
