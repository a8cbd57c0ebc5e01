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
MUST_FAIL = ["task:8.2"]
HINT = "mean loss per sample"
NOT_HINTS = ["reset_grad"]
VISIBLE = True
