"""kaiming_normal calls np.random.seed(0) before drawing, "to make it reproducible": every call
returns the same weights, so every layer of a network gets the same matrix."""
NOTEBOOK = "07_init_variance"
CELLS = {
    "task7_1_kaiming_normal": '''
def kaiming_normal(fan_in, fan_out):
    np.random.seed(0)
    std = np.sqrt(2.0 / fan_in)
    return ndl.Tensor(np.random.randn(fan_in, fan_out) * std, dtype="float32", requires_grad=False)
''',
}
MUST_FAIL = ["test_normal_draws_differ"]
HINT = "same weights"
VISIBLE = True
