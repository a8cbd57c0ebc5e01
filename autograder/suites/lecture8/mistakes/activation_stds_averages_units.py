"""activation_stds records the mean over the units of each unit's std, np.std(x, axis=0).mean(),
instead of the std of all of the layer's activations together."""
NOTEBOOK = "07_init_variance"
CELLS = {
    "task7_3_activation_stds": '''
def activation_stds(init_fn, depth, width, n_samples):
    x = ndl.Tensor(np.random.randn(n_samples, width), dtype="float32", requires_grad=False)
    stds = []
    for _ in range(depth):
        x = ndl.ops.relu(x @ init_fn(width, width))
        stds.append(float(np.std(x.numpy(), axis=0).mean()))
    return stds
''',
}
MUST_FAIL = ["task:7.3"]
HINT = "average the stds of the single units"
NOT_HINTS = ["draw", "ReLU"]
VISIBLE = True
