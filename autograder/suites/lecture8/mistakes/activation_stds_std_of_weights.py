"""activation_stds records the std of each weight matrix instead of the layer's output."""
NOTEBOOK = "07_init_variance"
CELLS = {
    "task7_3_activation_stds": '''
def activation_stds(init_fn, depth, width, n_samples):
    x = ndl.Tensor(np.random.randn(n_samples, width), dtype="float32")
    stds = []
    for _ in range(depth):
        W = init_fn(width, width)
        x = ndl.ops.relu(x @ W)
        stds.append(float(np.std(W.numpy())))
    return stds
''',
}
MUST_FAIL = ['task:7.3']
HINT = 'std of the weights'
VISIBLE = True
