"""Task 9.1 answered with needle's own walk, needle.autograd.find_topo_sort (and Task 9.2, which
uses it, with it)."""
NOTEBOOK = "09_backward"
CELLS = {
    "task9_1_find_topo_sort": '''
def find_topo_sort(node_list):
    return ndl.autograd.find_topo_sort(node_list)
''',
}
MUST_FAIL = ['test_topo_inputs_before_users', 'test_topo_many_paths', 'test_topo_deep_chain', 'test_backward_random_graphs', 'test_backward_many_paths', 'test_backward_deep_chain']
HINT = "it uses needle.autograd.find_topo_sort"
VISIBLE = True
