"""train_epoch returns the mean of the per-batch losses: the smaller last batch counts as much as
a full one, so it is not the mean loss per sample."""
NOTEBOOK = "08_train_digits"
CELLS = {
    "task8_2_train_epoch": '''
def train_epoch(model, loss_fn, opt, loader):
    losses = []
    for X, y in loader:
        opt.reset_grad()
        loss = loss_fn(model(X), y)
        losses.append(loss.numpy().item())
        loss.backward()
        opt.step()
    return sum(losses) / len(losses)
''',
}
MUST_FAIL = ['test_8_2_rung3_batches_of_unequal_size']
HINT = 'Task 8.2, rung 3 (batches of unequal size)'
NOT_HINTS = ["reset_grad"]
VISIBLE = True
