"""activation_stds draws x_0 as (width, n_samples) and multiplies x @ W: a needle matmul whose inner
dimensions differ (unless n_samples == width). The hint is about the matrix product's shapes, not
needle's "never broadcasts" (audit case c07_as_transposed_input)."""
NOTEBOOK = "07_init_variance"
CELLS = {
    "task7_3_activation_stds": '''
def activation_stds(init_fn, depth, width, n_samples):
    """Task 7.3: the std of each layer's post-ReLU activations in a depth-layer ReLU network.

    x_0 = np.random.randn(width, n_samples) (float32 Tensor, drawn first); for l = 1..depth:
    W_l = init_fn(width, width), x_l = relu(x_{l-1} @ W_l). Returns [std(x_1), ..., std(x_depth)]
    as Python floats.
    """
    x = ndl.Tensor(np.random.randn(width, n_samples), dtype="float32", requires_grad=False)
    stds = []
    for _ in range(depth):
        W = init_fn(width, width)
        x = ndl.ops.relu(x @ W)
        stds.append(float(np.std(x.numpy())))
    return stds
''',
}
MUST_FAIL = ['task:7.3']
HINT = 'the last axis of the left operand must equal the second-to-last'
NOT_HINTS = ['never broadcasts']
VISIBLE = True
