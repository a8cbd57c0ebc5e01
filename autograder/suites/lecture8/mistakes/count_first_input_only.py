"""count_graph_nodes that follows only the first input of each node (the lecture's
w.inputs[0] walk): it misses the constants and every other branch."""
NOTEBOOK = "01_graph_accumulation"
CELLS = {
    "task1_1_count_graph_nodes": '''
def count_graph_nodes(t) -> int:
    count = 1
    while t.inputs:
        t = t.inputs[0]
        count += 1
    return count
''',
}
MUST_FAIL = ['test_count_deep_chain']
HINT = 'Task 1.1, rung 3 (an op of two inputs)'
NOT_HINTS = ["t itself"]
VISIBLE = True
