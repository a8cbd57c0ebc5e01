"""detach that turns off t.requires_grad before making the constant: the new tensor is right, but
t itself no longer requires grad (only the new tensor may)."""
NOTEBOOK = "02_detach"
CELLS = {
    "task2_1_detach": '''
def detach(t):
    t.requires_grad = False
    return ndl.Tensor.make_const(t.realize_cached_data())
''',
}
MUST_FAIL = ["test_detach_leaves_original_untouched"]
HINT = "detach changed t.requires_grad"
VISIBLE = True
