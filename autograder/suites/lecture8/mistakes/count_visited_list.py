"""count_graph_nodes that remembers the visited nodes in a list: `node in visited` compares node
with every node visited so far, so the walk is quadratic (right, and fine on small graphs, but
far too slow on the 100,000-step chain)."""
NOTEBOOK = "01_graph_accumulation"
CELLS = {
    "task1_1_count_graph_nodes": '''
def count_graph_nodes(t) -> int:
    visited = []
    stack = [t]
    while stack:
        node = stack.pop()
        if node in visited:
            continue
        visited.append(node)
        stack.extend(node.inputs)
    return len(visited)
''',
}
MUST_FAIL = ['test_count_deep_chain']
HINT = 'Task 1.1, rung 10 (a chain about 100,000 updates long, in linear time)'
