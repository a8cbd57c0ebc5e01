"""train returns the lecture's losses, derived by hand, without training: the values are public,
so they count only with the parameters of a model that was trained."""
NOTEBOOK = "05_optimizer_training"
CELLS = {
    "task5_2_train": '''
def train(model, loss_fn, opt, x, y, epochs):
    return [4.0 * 0.64 ** k for k in range(epochs)]
''',
}
MUST_FAIL = ['test_5_2_rung4_the_optimizer_given']
HINT = 'Task 5.2, rung 4 (the optimizer given)'
VISIBLE = True
