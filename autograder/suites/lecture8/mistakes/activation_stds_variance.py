"""activation_stds records each layer's variance, np.var, instead of its standard deviation."""
NOTEBOOK = "07_init_variance"
CELLS = {
    "task7_3_activation_stds": '''
def activation_stds(init_fn, depth, width, n_samples):
    x = ndl.Tensor(np.random.randn(n_samples, width), dtype="float32", requires_grad=False)
    stds = []
    for _ in range(depth):
        x = ndl.ops.relu(x @ init_fn(width, width))
        stds.append(float(np.var(x.numpy())))
    return stds
''',
}
MUST_FAIL = ['test_7_3_rung3_one_layer_the_std_of_relu_x_0_i', 'test_stds_identity_layers', 'test_stds_random_weights']
HINT = 'Task 7.3, rung 3 (one layer: the std of relu(x_0 I))'
NOT_HINTS = ["draw", "ReLU"]
VISIBLE = True
