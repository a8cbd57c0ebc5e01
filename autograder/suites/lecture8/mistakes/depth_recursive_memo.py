"""graph_depth by memoized recursion: right on small graphs and on the ladder, but a
RecursionError on the 100,000-step chain."""
NOTEBOOK = "01_graph_accumulation"
CELLS = {
    "task1_2_graph_depth": '''
def graph_depth(t) -> int:
    memo = {}

    def d(node):
        if id(node) not in memo:
            memo[id(node)] = 1 + max(d(x) for x in node.inputs) if node.inputs else 0
        return memo[id(node)]

    return d(t)
''',
}
MUST_FAIL = ['test_depth_deep_chain']
HINT = 'Task 1.2, rung 7 (a chain 20,000 adds deep)'
VISIBLE = True
