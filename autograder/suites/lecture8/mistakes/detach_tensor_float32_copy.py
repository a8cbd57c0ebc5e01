"""detach as ndl.Tensor(t.realize_cached_data(), requires_grad=False): a leaf with the right
float32 values, but ndl.Tensor copies the array (and converts float64 to float32)."""
NOTEBOOK = "02_detach"
CELLS = {
    "task2_1_detach": '''
def detach(t):
    return ndl.Tensor(t.realize_cached_data(), requires_grad=False)
''',
}
MUST_FAIL = ['test_2_1_rung3_t_s_very_array', 'test_detach_drawn_tensors', 'test_detach_drawn_constants']
HINT = "Task 2.1, rung 3 (t's very array)"
VISIBLE = True
