"""detach returns t's array itself (t.realize_cached_data()): the very same memory and values, and
no graph, but a numpy array, not a needle Tensor: nothing computed from it can join a graph again."""
NOTEBOOK = "02_detach"
CELLS = {
    "task2_1_detach": '''
def detach(t):
    return t.realize_cached_data()
''',
}
MUST_FAIL = ['test_2_1_rung1_a_tensor_of_t_s_values', 'test_detach_drawn_tensors', 'test_detach_drawn_constants']
HINT = "Task 2.1, rung 1 (a Tensor of t's values)"
VISIBLE = True
