"""Trivial answer to Task 1.2: graph_depth returns 0 whatever the graph."""
NOTEBOOK = "01_graph_accumulation"
CELLS = {
    "task1_2_graph_depth": '''
def graph_depth(t) -> int:
    return 0
''',
}
MUST_FAIL = ['task:1.2']
HINT = 'Task 1.2, rung 2 (one op)'
VISIBLE = True
