"""graph_depth that walks every path with an explicit stack of (node, depth) pairs: right, and
fine on the deep chain, but exponential on a graph with many paths (the ladder)."""
NOTEBOOK = "01_graph_accumulation"
CELLS = {
    "task1_2_graph_depth": '''
def graph_depth(t) -> int:
    best, stack = 0, [(t, 0)]
    while stack:
        node, d = stack.pop()
        best = max(best, d)
        stack.extend((x, d + 1) for x in node.inputs)
    return best
''',
}
MUST_FAIL = ['test_depth_larger_graphs']
HINT = 'Task 1.2, rung 8 (larger graphs: the naive loop, long and short branches, shared nodes, exponentially many paths)'
