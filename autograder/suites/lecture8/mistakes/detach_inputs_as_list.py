"""detach builds the leaf by hand with inputs=[] (an empty list, not the empty tuple): everything else
right. It was told the tensor "still has inputs" (student audit, round 2)."""
NOTEBOOK = "02_detach"
CELLS = {
    "task2_1_detach": '''
def detach(t):
    d = ndl.Tensor.__new__(ndl.Tensor)
    d._init(None, [], t.realize_cached_data(), False)
    return d
''',
}
MUST_FAIL = ["test_detach_returns_new_leaf"]
HINT = "not a tuple"
VISIBLE = True
