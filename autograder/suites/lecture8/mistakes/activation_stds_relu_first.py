"""activation_stds applies the ReLU before the matmul: x = relu(x) @ W."""
NOTEBOOK = "07_init_variance"
CELLS = {
    "task7_3_activation_stds": '''
def activation_stds(init_fn, depth, width, n_samples):
    x = ndl.Tensor(np.random.randn(n_samples, width), dtype="float32")
    stds = []
    for _ in range(depth):
        x = ndl.ops.relu(x) @ init_fn(width, width)
        stds.append(float(np.std(x.numpy())))
    return stds
''',
}
MUST_FAIL = ['test_7_3_rung5_the_relu_after_the_matmul_w_i', 'test_stds_identity_layers', 'test_stds_random_weights']
HINT = 'Task 7.3, rung 5 (the ReLU after the matmul (W = -I))'
VISIBLE = True
