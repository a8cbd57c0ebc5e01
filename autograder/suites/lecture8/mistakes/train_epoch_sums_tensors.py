"""train_epoch adds up the loss Tensors themselves and returns a Tensor: the value is right, but
it is not a Python float, and the total keeps every batch's graph alive."""
NOTEBOOK = "08_train_digits"
CELLS = {
    "task8_2_train_epoch": '''
def train_epoch(model, loss_fn, opt, loader):
    total, count = 0.0, 0
    for X, y in loader:
        opt.reset_grad()
        loss = loss_fn(model(X), y)
        total = total + loss * X.shape[0]
        count += X.shape[0]
        loss.backward()
        opt.step()
    return total / count
''',
}
MUST_FAIL = ['test_8_2_rung2_a_python_float']
HINT = 'Task 8.2, rung 2 (a Python float)'
VISIBLE = True
