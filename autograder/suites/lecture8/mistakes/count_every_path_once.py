"""count_graph_nodes that counts each node once (a set of ids) but still walks every path: it
pushes a node's inputs each time it meets the node. Right everywhere, and exponential on a graph
with many paths."""
NOTEBOOK = "01_graph_accumulation"
CELLS = {
    "task1_1_count_graph_nodes": '''
def count_graph_nodes(t) -> int:
    seen, stack = set(), [t]
    while stack:
        v = stack.pop()
        seen.add(id(v))
        stack.extend(v.inputs)
    return len(seen)
''',
}
MUST_FAIL = ['test_count_larger_graphs']
HINT = 'Task 1.1, rung 9 (larger graphs: the naive update loop, shared nodes, exponentially many paths)'
