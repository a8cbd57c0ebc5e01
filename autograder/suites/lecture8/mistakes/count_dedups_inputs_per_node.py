"""count_graph_nodes that removes duplicates among each node's own inputs (x + x reaches x once)
but keeps no record across the walk: a node reached along two different paths (the diamond
2x + 3x) is counted twice."""
NOTEBOOK = "01_graph_accumulation"
CELLS = {
    "task1_1_count_graph_nodes": '''
def count_graph_nodes(t) -> int:
    count, stack = 0, [t]
    while stack:
        v = stack.pop()
        count += 1
        distinct = {id(x): x for x in v.inputs}
        stack.extend(distinct.values())
    return count
''',
}
MUST_FAIL = ["test_1_1_rung5_a_diamond", "test_count_larger_graphs"]
HINT = 'Task 1.1, rung 5 (a diamond)'
VISIBLE = True
