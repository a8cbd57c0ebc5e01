"""activation_stds seeds numpy (np.random.seed(0)) at its start, "for reproducibility": its draws are\nthose of seed 0, not of the caller's seed (student audit, round 3: the generic "stds differ" message)."""
NOTEBOOK = "07_init_variance"
CELLS = {"task7_3_activation_stds": '''
def activation_stds(init_fn, depth, width, n_samples):
    np.random.seed(0)
    x = ndl.Tensor(np.random.randn(n_samples, width), dtype="float32", requires_grad=False)
    stds = []
    for _ in range(depth):
        W = init_fn(width, width)
        x = ndl.ops.relu(x @ W)
        stds.append(float(np.std(x.numpy())))
    return stds
'''}
MUST_FAIL = ['test_7_3_rung7_x_0_from_the_caller_s_seed', 'test_stds_identity_layers', 'test_stds_random_weights']
HINT = "Task 7.3, rung 7 (x_0 from the caller's seed)"
VISIBLE = True
