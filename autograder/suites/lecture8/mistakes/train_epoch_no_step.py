"""train_epoch computes the epoch's mean loss correctly but never calls backward() or step():
the model is evaluated, not trained."""
NOTEBOOK = "08_train_digits"
CELLS = {
    "task8_2_train_epoch": '''
def train_epoch(model, loss_fn, opt, loader):
    total, count = 0.0, 0
    for X, y in loader:
        loss = loss_fn(model(X), y)
        total += loss.numpy().item() * X.shape[0]
        count += X.shape[0]
    return total / count
''',
}
MUST_FAIL = ['test_8_2_rung4_one_step_per_batch']
HINT = 'Task 8.2, rung 4 (one step per batch)'
VISIBLE = True
