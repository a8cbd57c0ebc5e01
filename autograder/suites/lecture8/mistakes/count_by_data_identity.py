"""count_graph_nodes tells nodes apart by the id of their cached_data: x and x.detach() share one
array, so they count once (and every node of a lazily built graph holds None)."""
NOTEBOOK = "01_graph_accumulation"
CELLS = {
    "task1_1_count_graph_nodes": '''
def count_graph_nodes(t) -> int:
    seen, stack = set(), [t]
    while stack:
        node = stack.pop()
        if id(node.cached_data) not in seen:
            seen.add(id(node.cached_data))
            stack.extend(node.inputs)
    return len(seen)
''',
}
MUST_FAIL = ['test_1_1_rung7_x_and_x_detach']
HINT = 'Task 1.1, rung 7 (x and x.detach())'
VISIBLE = True
