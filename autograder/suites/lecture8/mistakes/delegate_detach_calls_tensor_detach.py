"""Task 2.1 answered by calling needle's own Tensor.detach."""
NOTEBOOK = "02_detach"
CELLS = {
    "task2_1_detach": '''
def detach(t):
    return t.detach()
''',
}
MUST_FAIL = ["task:2.1"]
HINT = "Task 2.1 must be your own"
VISIBLE = True
