"""count_graph_nodes that starts its walk from t's inputs, so t itself is never counted: every
count is one short (a leaf counts 0)."""
NOTEBOOK = "01_graph_accumulation"
CELLS = {
    "task1_1_count_graph_nodes": '''
def count_graph_nodes(t) -> int:
    seen = set()
    stack = list(t.inputs)
    while stack:
        node = stack.pop()
        if id(node) in seen:
            continue
        seen.add(id(node))
        stack.extend(node.inputs)
    return len(seen)
''',
}
MUST_FAIL = ['task:1.1']
HINT = 'Task 1.1, rung 1 (a leaf)'
VISIBLE = True
