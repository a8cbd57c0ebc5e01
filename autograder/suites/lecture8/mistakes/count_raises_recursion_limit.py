"""A recursive walk that raises Python's recursion limit inside the function: it passes the deep
chain in a kernel, but the grader keeps the default limit (sys.setrecursionlimit does nothing
there), so it loses the deep chain as any recursive walk does, with the same hint."""
NOTEBOOK = "01_graph_accumulation"
CELLS = {
    "task1_1_count_graph_nodes": '''
import sys


def count_graph_nodes(t) -> int:
    sys.setrecursionlimit(1_000_000)
    seen = set()

    def visit(node):
        if id(node) not in seen:
            seen.add(id(node))
            for x in node.inputs:
                visit(x)

    visit(t)
    return len(seen)
''',
}
MUST_FAIL = ['test_count_deep_chain']
HINT = 'Task 1.1, rung 8 (a chain 20,000 adds deep)'
NOT_HINTS = ["must be your own"]
VISIBLE = True
