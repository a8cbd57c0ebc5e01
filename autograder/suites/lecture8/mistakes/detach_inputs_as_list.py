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
MUST_FAIL = ['test_2_1_rung5_no_inputs_the_empty_tuple', 'test_detach_drawn_tensors', 'test_detach_drawn_constants']
HINT = 'Task 2.1, rung 5 (no inputs: the empty tuple)'
VISIBLE = True
