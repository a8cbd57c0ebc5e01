"""graph_depth that follows only the last input of each node: right when the longer branch is
the second operand (x + 2x), short when it is the first (x*2*3 + x)."""
NOTEBOOK = "01_graph_accumulation"
CELLS = {
    "task1_2_graph_depth": '''
def graph_depth(t) -> int:
    d = 0
    while t.inputs:
        t = t.inputs[-1]
        d += 1
    return d
''',
}
MUST_FAIL = ["test_1_2_rung5_the_longer_branch_first", "test_depth_larger_graphs"]
HINT = 'Task 1.2, rung 5 (the longer branch first)'
VISIBLE = True
