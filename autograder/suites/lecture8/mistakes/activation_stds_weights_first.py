"""activation_stds draws all the weight matrices first and the input after them (other random numbers)."""
NOTEBOOK = "07_init_variance"
CELLS = {
    "task7_3_activation_stds": '''
def activation_stds(init_fn, depth, width, n_samples):
    Ws = [init_fn(width, width) for _ in range(depth)]
    x = ndl.Tensor(np.random.randn(n_samples, width), dtype="float32")
    stds = []
    for W in Ws:
        x = ndl.ops.relu(x @ W)
        stds.append(float(np.std(x.numpy())))
    return stds
''',
}
MUST_FAIL = ['test_7_3_rung8_x_0_drawn_before_the_weights', 'test_stds_random_weights']
HINT = 'Task 7.3, rung 8 (x_0 drawn before the weights)'
VISIBLE = True
