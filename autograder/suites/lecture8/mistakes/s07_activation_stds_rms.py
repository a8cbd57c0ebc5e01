"""activation_stds records the root mean square np.sqrt(np.mean(x**2)) of each layer's output
instead of its standard deviation: the same for zero-mean values, but ReLU outputs have a
nonzero mean."""
NOTEBOOK = "07_init_variance"
CELLS = {
    "task7_3_activation_stds": '''
def activation_stds(init_fn, depth, width, n_samples):
    x = ndl.Tensor(np.random.randn(n_samples, width), dtype="float32", requires_grad=False)
    stds = []
    for _ in range(depth):
        W = init_fn(width, width)
        x = ndl.ops.relu(x @ W)
        stds.append(float(np.sqrt(np.mean(x.numpy() ** 2))))
    return stds
''',
}
MUST_FAIL = ['test_stds_returns_depth_floats', 'test_stds_identity_layers_scale_by_c', 'test_stds_first_layer_is_post_relu',
             'test_stds_kaiming_keeps_scale']
HINT = 'the root mean square'
VISIBLE = True
