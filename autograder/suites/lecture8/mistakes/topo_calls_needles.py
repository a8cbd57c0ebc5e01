"""Task 9.1 answered with needle's own walk, needle.autograd.find_topo_sort (and Task 9.2, which
uses it, with it)."""
NOTEBOOK = "09_backward"
CELLS = {
    "task9_1_find_topo_sort": '''
def find_topo_sort(node_list):
    return ndl.autograd.find_topo_sort(node_list)
''',
}
MUST_FAIL = ["task:9.1", "task:9.2"]
HINT = "it uses needle.autograd.find_topo_sort"
VISIBLE = True
