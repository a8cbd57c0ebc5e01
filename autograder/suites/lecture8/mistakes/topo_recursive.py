"""find_topo_sort by recursion: right on small graphs, a RecursionError on a deep chain (in Task 9.2
too, which walks the same order)."""
NOTEBOOK = "09_backward"
CELLS = {
    "task9_1_find_topo_sort": '''
def find_topo_sort(node_list):
    order, placed = [], set()

    def visit(node):
        if id(node) in placed:
            return
        placed.add(id(node))
        for x in node.inputs:
            visit(x)
        order.append(node)

    for root in node_list:
        visit(root)
    return order
''',
}
MUST_FAIL = ['test_topo_deep_chain', 'test_backward_deep_chain']
HINT = 'Task 9.1, rung 11 (a chain of 5,000 naive updates)'
VISIBLE = False
