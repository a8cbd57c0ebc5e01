"""Task 1.2: the depths are computed by the student, but over needle's own graph walk
(_topo_order), which is the hard half of the task."""
NOTEBOOK = "01_graph_accumulation"
CELLS = {
    "task1_2_graph_depth": '''
def graph_depth(t) -> int:
    depth = {}
    for node in ndl.autograd._topo_order([t]):
        depth[id(node)] = 1 + max(depth[id(x)] for x in node.inputs) if node.inputs else 0
    return depth[id(t)]
''',
}
MUST_FAIL = ["task:1.2"]
HINT = "Task 1.2 must be your own graph_depth"
VISIBLE = True
