"""activation_stds appends np.std(...) of a float32 array: the right values, but numpy float32
scalars where the contract asks for Python floats."""
NOTEBOOK = "07_init_variance"
CELLS = {
    "task7_3_activation_stds": '''
def activation_stds(init_fn, depth, width, n_samples):
    x = ndl.Tensor(np.random.randn(n_samples, width).astype(np.float32), requires_grad=False)
    stds = []
    for _ in range(depth):
        W = init_fn(width, width)
        x = ndl.ops.relu(x @ W)
        stds.append(np.std(x.numpy()))
    return stds
''',
}
MUST_FAIL = ["test_7_3_rung2_a_list_of_python_floats", "test_stds_identity_layers", "test_stds_random_weights"]
HINT = "Task 7.3, rung 2 (a list of Python floats)"
VISIBLE = True
