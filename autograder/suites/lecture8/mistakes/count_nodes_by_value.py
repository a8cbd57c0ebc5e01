"""count_graph_nodes that remembers the values it has seen instead of the nodes: two distinct
tensors holding equal values are counted once."""
NOTEBOOK = "01_graph_accumulation"
CELLS = {
    "task1_1_count_graph_nodes": '''
def count_graph_nodes(t) -> int:
    seen, stack, count = set(), [t], 0
    while stack:
        node = stack.pop()
        key = tuple(node.numpy().ravel().tolist())
        if key in seen:
            continue
        seen.add(key)
        count += 1
        stack.extend(node.inputs)
    return count
''',
}
MUST_FAIL = ['test_count_deep_chain']
HINT = 'Task 1.1, rung 6 (two leaves of equal value)'
VISIBLE = False
VISIBLE = True
