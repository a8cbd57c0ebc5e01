"""detach as ndl.Tensor(t.realize_cached_data(), requires_grad=False): a leaf with the right
float32 values, but ndl.Tensor copies the array (and converts float64 to float32)."""
NOTEBOOK = "02_detach"
CELLS = {
    "task2_1_detach": '''
def detach(t):
    return ndl.Tensor(t.realize_cached_data(), requires_grad=False)
''',
}
MUST_FAIL = ["test_detach_shares_cached_data", "test_detach_realizes_lazy_tensor", "test_detach_values_and_dtype"]
HINT = "a copy"
VISIBLE = True
