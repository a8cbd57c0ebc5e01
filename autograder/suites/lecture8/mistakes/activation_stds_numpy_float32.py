"""activation_stds records np.std(x.numpy()) as it comes: numpy float32 numbers, where the task
asks for Python floats."""
NOTEBOOK = "07_init_variance"
CELLS = {
    "task7_3_activation_stds": '''
def activation_stds(init_fn, depth, width, n_samples):
    x = ndl.Tensor(np.random.randn(n_samples, width), dtype="float32", requires_grad=False)
    stds = []
    for _ in range(depth):
        x = ndl.ops.relu(x @ init_fn(width, width))
        stds.append(np.std(x.numpy()))
    return stds
''',
}
MUST_FAIL = ['test_7_3_rung2_a_list_of_python_floats']
HINT = 'Task 7.3, rung 2 (a list of Python floats)'
VISIBLE = True
