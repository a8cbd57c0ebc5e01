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
MUST_FAIL = ['test_7_3_rung4_each_layer_s_input_is_the_previous_layer_s_output', 'test_stds_identity_layers', 'test_stds_random_weights']
HINT = "Task 7.3, rung 4 (each layer's input is the previous layer's output)"
VISIBLE = True
