"""train_epoch trains right and weights each batch's loss by its size, but returns the total:
it forgets to divide by the number of samples."""
NOTEBOOK = "08_train_digits"
CELLS = {
    "task8_2_train_epoch": '''
def train_epoch(model, loss_fn, opt, loader):
    total = 0.0
    for X, y in loader:
        opt.reset_grad()
        loss = loss_fn(model(X), y)
        total += loss.numpy().item() * X.shape[0]
        loss.backward()
        opt.step()
    return total
''',
}
MUST_FAIL = ['test_8_2_rung1_one_batch']
HINT = 'Task 8.2, rung 1 (one batch)'
NOT_HINTS = ["reset_grad"]
VISIBLE = True
