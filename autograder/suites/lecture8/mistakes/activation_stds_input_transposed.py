"""activation_stds draws x_0 as a (width, n_samples) array of column samples and transposes it to
(n_samples, width): the right shape, but other numbers in each row than np.random.randn(n_samples, width).
With W = c I every layer's std is the same (the std is over all the values); with random W it is not."""
NOTEBOOK = "07_init_variance"
CELLS = {
    "task7_3_activation_stds": '''
def activation_stds(init_fn, depth, width, n_samples):
    x = ndl.Tensor(np.random.randn(width, n_samples).T, dtype="float32", requires_grad=False)
    stds = []
    for _ in range(depth):
        x = ndl.ops.relu(x @ init_fn(width, width))
        stds.append(float(np.std(x.numpy())))
    return stds
''',
}
MUST_FAIL = ['test_stds_random_weights']
HINT = 'Task 7.3, rung 10 (random weights: other sizes and seeds, 20 Kaiming layers, 6 N(0, 1) layers)'
