"""activation_stds draws its input with np.random.rand (uniform on [0, 1)) instead of randn."""
NOTEBOOK = "07_init_variance"
CELLS = {
    "task7_3_activation_stds": '''
def activation_stds(init_fn, depth, width, n_samples):
    x = ndl.Tensor(np.random.rand(n_samples, width), dtype="float32", requires_grad=False)
    stds = []
    for _ in range(depth):
        x = ndl.ops.relu(x @ init_fn(width, width))
        stds.append(float(np.std(x.numpy())))
    return stds
''',
}
MUST_FAIL = ['task:7.3']
HINT = 'uniform on [0, 1)'
NOT_HINTS = ['ReLU']
VISIBLE = True
