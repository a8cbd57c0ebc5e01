"""Task 7.3 answered trivially: a constant list [1.0] * depth, no network. It must earn nothing."""
NOTEBOOK = "07_init_variance"
CELLS = {
    "task7_3_activation_stds": '''
def activation_stds(init_fn, depth, width, n_samples):
    return [1.0] * depth
''',
}
MUST_FAIL = ['test_7_3_rung3_one_layer_the_std_of_relu_x_0_i', 'test_stds_identity_layers', 'test_stds_random_weights']
HINT = 'Task 7.3, rung 3 (one layer: the std of relu(x_0 I))'
VISIBLE = True
