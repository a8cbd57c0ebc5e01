"""detach that makes sure the detached data is float32, needle's default dtype
(np.asarray(..., dtype=np.float32)): for a float32 t that is t's very array, as the visible tests
see; for a float64 t it is a float32 copy."""
NOTEBOOK = "02_detach"
CELLS = {
    "task2_1_detach": '''
def leaf(array, requires_grad=False):
    d = ndl.Tensor.__new__(ndl.Tensor)
    d.op, d.inputs, d.cached_data, d.requires_grad, d.grad = None, (), array, requires_grad, None
    return d


def detach(t):
    return leaf(np.asarray(t.realize_cached_data(), dtype=np.float32))
''',
}
MUST_FAIL = ['test_detach_drawn_tensors', 'test_detach_drawn_constants']
HINT = 'Task 2.1, rung 10 (drawn leaves and non-leaves, float32 and float64, eager and lazy)'
