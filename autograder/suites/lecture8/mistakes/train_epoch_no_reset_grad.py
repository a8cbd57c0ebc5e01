"""train_epoch without opt.reset_grad(): backward() accumulates, so every step uses the sum of
the gradients of all the batches so far."""
NOTEBOOK = "08_train_digits"
CELLS = {
    "task8_2_train_epoch": '''
def train_epoch(model, loss_fn, opt, loader):
    total, count = 0.0, 0
    for X, y in loader:
        loss = loss_fn(model(X), y)
        total += loss.numpy().item() * X.shape[0]
        count += X.shape[0]
        loss.backward()
        opt.step()
    return total / count
''',
}
MUST_FAIL = ['test_8_2_rung5_the_model_after_the_epoch']
HINT = 'Task 8.2, rung 5 (the model after the epoch)'
VISIBLE = True
