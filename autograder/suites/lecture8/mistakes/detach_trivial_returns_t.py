"""Trivial answer to Task 2.1: detach returns its input t unchanged (it shares the array, but
it is t itself, graph and all)."""
NOTEBOOK = "02_detach"
CELLS = {
    "task2_1_detach": '''
def detach(t):
    return t
''',
}
MUST_FAIL = ["task:2.1"]
HINT = "returned t itself"
VISIBLE = True
