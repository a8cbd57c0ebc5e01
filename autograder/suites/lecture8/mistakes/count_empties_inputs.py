"""count_graph_nodes counts right, but empties each node's inputs once it has read them ("to free
memory"): the graph is gone, and a second count, with a node on top of it, gives 2."""
NOTEBOOK = "01_graph_accumulation"
CELLS = {
    "task1_1_count_graph_nodes": '''
def count_graph_nodes(t) -> int:
    seen, stack = set(), [t]
    while stack:
        v = stack.pop()
        if id(v) in seen:
            continue
        seen.add(id(v))
        stack.extend(v.inputs)
        v.inputs = ()
    return len(seen)
''',
}
MUST_FAIL = ['test_count_leaves_graph_unchanged']
HINT = 'Task 1.1, rung 11 (counted right twice, once with a node on top: the graph left unchanged)'
