"""Task 1.1 answered by calling needle's own count: needle.autograd.graph_node_count."""
NOTEBOOK = "01_graph_accumulation"
CELLS = {
    "task1_1_count_graph_nodes": '''
def count_graph_nodes(t) -> int:
    return ndl.autograd.graph_node_count(t)
''',
}
MUST_FAIL = ["task:1.1"]
HINT = "Task 1.1 must be your own count_graph_nodes"
VISIBLE = True
