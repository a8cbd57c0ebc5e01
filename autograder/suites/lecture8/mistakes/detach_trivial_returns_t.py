"""Trivial answer to Task 2.1: detach returns its input t unchanged (it shares the array, but
it is t itself, graph and all)."""
NOTEBOOK = "02_detach"
CELLS = {
    "task2_1_detach": '''
def detach(t):
    return t
''',
}
MUST_FAIL = ['test_2_1_rung2_a_new_object_not_t', 'test_detach_drawn_tensors', 'test_detach_drawn_constants']
HINT = 'Task 2.1, rung 2 (a new object, not t)'
VISIBLE = True
