"""Task 1.1 answered with needle's topological sort, reached through importlib and getattr
(no needle name appears in the code)."""
NOTEBOOK = "01_graph_accumulation"
CELLS = {
    "task1_1_count_graph_nodes": '''
import importlib

_walk = getattr(importlib.import_module("needle." + "autograd"), "find_" + "topo_sort")


def count_graph_nodes(t) -> int:
    return len(_walk([t]))
''',
}
MUST_FAIL = ["task:1.1"]
HINT = "Task 1.1 must be your own count_graph_nodes"
