"""train records the loss Tensors themselves (each keeping its whole graph alive) instead of
Python floats."""
NOTEBOOK = "05_optimizer_training"
CELLS = {
    "task5_2_train": '''
def train(model, loss_fn, opt, x, y, epochs):
    losses = []
    for _ in range(epochs):
        opt.reset_grad()
        loss = loss_fn(model(x), y)
        losses.append(loss)
        loss.backward()
        opt.step()
    return losses
''',
}
MUST_FAIL = ['test_train_returns_floats']
HINT = 'Task 5.2, rung 2 (a Python float)'
VISIBLE = True
