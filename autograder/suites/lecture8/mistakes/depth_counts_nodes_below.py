"""graph_depth that walks the whole graph and returns how many nodes lie below t (the count of
Task 1.1 minus one): right on a leaf and on one op, too deep wherever a node has two inputs
(once blamed on adding up branches)."""
NOTEBOOK = "01_graph_accumulation"
CELLS = {
    "task1_2_graph_depth": '''
def graph_depth(t) -> int:
    seen, stack = set(), [t]
    while stack:
        node = stack.pop()
        if id(node) in seen:
            continue
        seen.add(id(node))
        stack.extend(node.inputs)
    return len(seen) - 1
''',
}
MUST_FAIL = ['test_depth_deep_chain', 'test_depth_leaves_graph_unchanged']
HINT = 'Task 1.2, rung 7 (a chain 20,000 adds deep)'
NOT_HINTS = ["adds up"]
VISIBLE = True
