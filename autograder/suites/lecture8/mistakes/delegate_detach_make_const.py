"""Task 2.1 answered in one line with needle's Tensor.make_const, a leaf made around t's array:
what detach does, done by needle (refused in the worker like Tensor.detach)."""
NOTEBOOK = "02_detach"
CELLS = {
    "task2_1_detach": '''
def detach(t):
    return ndl.Tensor.make_const(t.realize_cached_data())
''',
}
MUST_FAIL = ["task:2.1"]
HINT = "Task 2.1 must be your own"
VISIBLE = True
