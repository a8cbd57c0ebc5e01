"""detach that shares t.cached_data directly: right in eager mode, but in lazy mode that
attribute is still None (the value is computed only on demand), so the result holds no data."""
NOTEBOOK = "02_detach"
CELLS = {
    "task2_1_detach": '''
def detach(t):
    return ndl.Tensor.make_const(t.cached_data)
''',
}
MUST_FAIL = ["test_detach_realizes_lazy_tensor"]
HINT = "until it is computed"
VISIBLE = True
