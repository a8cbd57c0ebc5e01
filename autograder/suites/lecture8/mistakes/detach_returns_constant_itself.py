"""detach that skips the work for a tensor that is already a constant (a leaf with requires_grad
False) and returns t itself: the contract asks for a new Tensor whatever t is."""
NOTEBOOK = "02_detach"
CELLS = {
    "task2_1_detach": '''
def leaf(array, requires_grad=False):
    d = ndl.Tensor.__new__(ndl.Tensor)
    d.op, d.inputs, d.cached_data, d.requires_grad, d.grad = None, (), array, requires_grad, None
    return d


def detach(t):
    if t.op is None and not t.requires_grad:
        return t  # nothing to detach
    return leaf(t.realize_cached_data())
''',
}
MUST_FAIL = ['test_detach_drawn_constants']
HINT = 'Task 2.1, rung 11 (drawn constants)'
