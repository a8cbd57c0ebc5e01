"""Trivial answer to Task 1.1: count_graph_nodes returns 0 whatever the graph."""
NOTEBOOK = "01_graph_accumulation"
CELLS = {
    "task1_1_count_graph_nodes": '''
def count_graph_nodes(t) -> int:
    return 0
''',
}
MUST_FAIL = ['task:1.1']
HINT = 'Task 1.1, rung 1 (a leaf)'
VISIBLE = True
