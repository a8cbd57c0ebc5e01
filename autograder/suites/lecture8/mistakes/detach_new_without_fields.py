"""detach builds its Tensor with Tensor.__new__ and sets only some fields: requires_grad and grad
were never set, so reading them raises. The hint names the fields left unset (it said "an attribute
that this object does not have" with no line, and the visible test showed a line of its own)."""
NOTEBOOK = "02_detach"
CELLS = {
    "task2_1_detach": '''
def detach(t):
    d = ndl.Tensor.__new__(ndl.Tensor)
    d.cached_data = t.realize_cached_data()
    d.op = None
    d.inputs = ()
    return d
''',
}
MUST_FAIL = ['test_2_1_rung6_a_constant', 'test_detach_drawn_tensors', 'test_detach_drawn_constants']
HINT = 'Task 2.1, rung 6 (a constant)'
VISIBLE = True
