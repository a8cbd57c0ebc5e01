"""Task 7.3 answered trivially: a constant list [1.0] * depth, no network. It must earn nothing."""
NOTEBOOK = "07_init_variance"
CELLS = {
    "task7_3_activation_stds": '''
def activation_stds(init_fn, depth, width, n_samples):
    return [1.0] * depth
''',
}
MUST_FAIL = ['task:7.3']
HINT = 'never called init_fn'
VISIBLE = True
