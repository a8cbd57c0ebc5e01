"""detach that shares t.cached_data directly: right in eager mode, but in lazy mode that
attribute is still None (the value is computed only on demand), so the result holds no data."""
NOTEBOOK = "02_detach"
CELLS = {
    "task2_1_detach": '''
def leaf(array, requires_grad=False):
    d = ndl.Tensor.__new__(ndl.Tensor)
    d.op, d.inputs, d.cached_data, d.requires_grad, d.grad = None, (), array, requires_grad, None
    return d


def detach(t):
    return leaf(t.cached_data)
''',
}
MUST_FAIL = ['test_2_1_rung9_lazy_mode_t_s_computed_array', 'test_detach_drawn_tensors']
HINT = "Task 2.1, rung 9 (lazy mode: t's computed array)"
VISIBLE = True
