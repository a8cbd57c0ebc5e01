"""train_epoch calls opt.zero_grad() (PyTorch's name), which the course's optimizers do not have."""
NOTEBOOK = "08_train_digits"
CELLS = {
    "task8_2_train_epoch": '''
def train_epoch(model, loss_fn, opt, loader):
    total, count = 0.0, 0
    for X, y in loader:
        opt.zero_grad()
        loss = loss_fn(model(X), y)
        total += loss.numpy().item() * X.shape[0]
        count += X.shape[0]
        loss.backward()
        opt.step()
    return total / count
''',
}
MUST_FAIL = ['task:8.2']
HINT = 'zero_grad'
VISIBLE = True
