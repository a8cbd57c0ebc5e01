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
MUST_FAIL = ["test_epoch_mean_loss"]
HINT = "every sample counts once"
NOT_HINTS = ["reset_grad"]
VISIBLE = True
