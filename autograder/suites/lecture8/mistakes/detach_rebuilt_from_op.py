"""detach built the way needle builds an op's result, Tensor.make_from_op, but with t's own op
and inputs: a new Tensor on the same array that still hangs on t's graph (the pointer to
make_from_op read as "copy what an op result has"), so backward goes through it."""
NOTEBOOK = "02_detach"
CELLS = {
    "task2_1_detach": '''
def detach(t):
    d = ndl.Tensor.__new__(ndl.Tensor)
    d.op, d.inputs, d.grad = t.op, t.inputs, None
    d.cached_data, d.requires_grad = t.realize_cached_data(), False
    return d
''',
}
MUST_FAIL = ['test_2_1_rung4_no_op', 'test_detach_drawn_tensors']
HINT = 'Task 2.1, rung 4 (no op)'
VISIBLE = True
