"""count_graph_nodes that counts the leaves (nodes without inputs) only, as if the ops were edges
and the tensors the nodes: right on a lone leaf, one short on x * 2."""
NOTEBOOK = "01_graph_accumulation"
CELLS = {
    "task1_1_count_graph_nodes": '''
def count_graph_nodes(t) -> int:
    seen, leaves, stack = set(), 0, [t]
    while stack:
        v = stack.pop()
        if id(v) in seen:
            continue
        seen.add(id(v))
        if not v.inputs:
            leaves += 1
        stack.extend(v.inputs)
    return leaves
''',
}
MUST_FAIL = ["test_1_1_rung2_one_op", "test_count_larger_graphs"]
HINT = 'Task 1.1, rung 2 (one op)'
VISIBLE = True
