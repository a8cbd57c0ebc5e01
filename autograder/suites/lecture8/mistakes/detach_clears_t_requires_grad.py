"""detach that turns off t.requires_grad before making the constant: the new tensor is right, but
t itself no longer requires grad (only the new tensor may)."""
NOTEBOOK = "02_detach"
CELLS = {
    "task2_1_detach": '''
def leaf(array, requires_grad=False):
    d = ndl.Tensor.__new__(ndl.Tensor)
    d.op, d.inputs, d.cached_data, d.requires_grad, d.grad = None, (), array, requires_grad, None
    return d


def detach(t):
    t.requires_grad = False
    return leaf(t.realize_cached_data())
''',
}
MUST_FAIL = ['test_2_1_rung7_t_keeps_requires_grad', 'test_detach_drawn_tensors']
HINT = 'Task 2.1, rung 7 (t keeps requires_grad)'
VISIBLE = True
