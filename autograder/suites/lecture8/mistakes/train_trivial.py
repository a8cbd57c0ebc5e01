"""Trivial answer to Task 5.2: train returns an empty list without training."""
NOTEBOOK = "05_optimizer_training"
CELLS = {
    "task5_2_train": '''
def train(model, loss_fn, opt, x, y, epochs) -> list:
    return []
''',
}
MUST_FAIL = ['task:5.2']
HINT = 'Task 5.2, rung 1 (one loss per epoch)'
VISIBLE = True
