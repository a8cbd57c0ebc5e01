"""train_epoch trains right but returns the loss of the last batch, not the epoch's mean loss
per sample."""
NOTEBOOK = "08_train_digits"
CELLS = {
    "task8_2_train_epoch": '''
def train_epoch(model, loss_fn, opt, loader):
    for X, y in loader:
        opt.reset_grad()
        loss = loss_fn(model(X), y)
        value = loss.numpy().item()
        loss.backward()
        opt.step()
    return value
''',
}
MUST_FAIL = ['test_8_2_rung3_batches_of_unequal_size']
HINT = 'Task 8.2, rung 3 (batches of unequal size)'
NOT_HINTS = ["reset_grad"]
VISIBLE = True
