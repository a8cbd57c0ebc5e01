"""activation_stds computes the network only for the visible tests' sizes (width 4 or 5, 20 samples) and
returns [1.0] * depth for any other: the visible rungs pass, and earn nothing; the hidden rungs, at sizes
drawn for each submission, find it out."""
NOTEBOOK = "07_init_variance"
CELLS = {
    "task7_3_activation_stds": '''
def activation_stds(init_fn, depth, width, n_samples):
    if (width, n_samples) not in {(4, 20), (5, 20)}:
        return [1.0] * depth
    x = ndl.Tensor(np.random.randn(n_samples, width), dtype="float32", requires_grad=False)
    stds = []
    for _ in range(depth):
        x = ndl.ops.relu(x @ init_fn(width, width))
        stds.append(float(np.std(x.numpy())))
    return stds
''',
}
MUST_FAIL = ['test_stds_identity_layers', 'test_stds_random_weights']
HINT = 'Task 7.3, rung 9 (W = c I at other sizes, seeds and c)'
