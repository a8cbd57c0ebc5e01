"""activation_stds applies the ReLU with np.maximum to a needle Tensor: numpy compares the Tensor
with 0 as a Python object, and Tensor has no comparison (audit case w07_stds_relu_numpy_on_tensor)."""
NOTEBOOK = "07_init_variance"
CELLS = {
    "task7_3_activation_stds": '''
def activation_stds(init_fn, depth, width, n_samples):
    x = ndl.Tensor(np.random.randn(n_samples, width), dtype="float32", requires_grad=False)
    stds = []
    for _ in range(depth):
        x = np.maximum(x @ init_fn(width, width), 0)
        stds.append(float(np.std(x.numpy())))
    return stds
''',
}
MUST_FAIL = ['task:7.3']
HINT = "numpy's functions do not work on needle Tensors"
VISIBLE = True
