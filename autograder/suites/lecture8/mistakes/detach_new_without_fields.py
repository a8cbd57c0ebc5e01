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
MUST_FAIL = ["task:2.1"]
HINT = "has no requires_grad, no grad"
VISIBLE = True
