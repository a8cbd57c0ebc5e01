"""activation_stds with the sample std (ddof=1, torch.std's default): about 0.1% above the
task's np.std on the hidden tests' small layers, caught where they check to 1e-4."""
NOTEBOOK = "07_init_variance"
CELLS = {
    "task7_3_activation_stds": '''
def activation_stds(init_fn, depth, width, n_samples):
    x = ndl.Tensor(np.random.randn(n_samples, width), dtype="float32", requires_grad=False)
    stds = []
    for _ in range(depth):
        W = init_fn(width, width)
        x = ndl.ops.relu(x @ W)
        stds.append(float(np.std(x.numpy(), ddof=1)))
    return stds
''',
}
MUST_FAIL = ["test_stds_identity_layers_scale_by_c", "test_stds_first_layer_is_post_relu"]
HINT = "ddof=1"
VISIBLE = True
