"""count_graph_nodes walks the graph right and returns the set of visited nodes instead of its
size: a set of Tensors, which is not a number."""
NOTEBOOK = "01_graph_accumulation"
CELLS = {
    "task1_1_count_graph_nodes": '''
def count_graph_nodes(t) -> int:
    seen, stack = set(), [t]
    while stack:
        node = stack.pop()
        if node not in seen:
            seen.add(node)
            stack.extend(node.inputs)
    return seen
''',
}
MUST_FAIL = ['task:1.1']
HINT = 'Task 1.1, rung 1 (a leaf)'
VISIBLE = True
