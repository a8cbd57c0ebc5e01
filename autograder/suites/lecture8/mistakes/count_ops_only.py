"""count_graph_nodes that counts only the nodes made by ops (`if node.op is not None`): the
leaves and the constants are left out, so a lone leaf counts 0 (once told "count t itself")."""
NOTEBOOK = "01_graph_accumulation"
CELLS = {
    "task1_1_count_graph_nodes": '''
def count_graph_nodes(t) -> int:
    seen = set()
    stack = [t]
    count = 0
    while stack:
        node = stack.pop()
        if id(node) in seen:
            continue
        seen.add(id(node))
        if node.op is not None:
            count += 1
        stack.extend(node.inputs)
    return count
''',
}
MUST_FAIL = ['task:1.1']
HINT = 'Task 1.1, rung 1 (a leaf)'
NOT_HINTS = ["t itself"]
VISIBLE = True
