"""A recursive depth that raises Python's recursion limit at the top of its cell: in the grader
that line does nothing, and the deep chain meets the default limit."""
NOTEBOOK = "01_graph_accumulation"
CELLS = {
    "task1_2_graph_depth": '''
import sys

sys.setrecursionlimit(1_000_000)


def graph_depth(t) -> int:
    depths = {}

    def depth(node):
        if id(node) not in depths:
            depths[id(node)] = 1 + max(depth(x) for x in node.inputs) if node.inputs else 0
        return depths[id(node)]

    return depth(t)
''',
}
MUST_FAIL = ['test_depth_deep_chain']
HINT = 'Task 1.2, rung 7 (a chain 20,000 adds deep)'
NOT_HINTS = ["must be your own", "not defined"]
VISIBLE = True
