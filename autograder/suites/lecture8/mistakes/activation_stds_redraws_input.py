"""activation_stds that draws a fresh input inside the loop: every layer sees new random numbers,
not the previous layer's output (audit case w07_stds_redraws_input_each_layer)."""
NOTEBOOK = "07_init_variance"
CELLS = {
    "task7_3_activation_stds": '''
def activation_stds(init_fn, depth, width, n_samples):
    stds = []
    for _ in range(depth):
        x = ndl.Tensor(np.random.randn(n_samples, width), dtype="float32", requires_grad=False)
        x = ndl.ops.relu(x @ init_fn(width, width))
        stds.append(float(np.std(x.numpy())))
    return stds
''',
}
MUST_FAIL = ["test_stds_draws_the_input_first", "test_stds_new_weights_per_layer", "test_stds_kaiming_keeps_scale"]
HINT = "draws a new input at every layer"
VISIBLE = True
