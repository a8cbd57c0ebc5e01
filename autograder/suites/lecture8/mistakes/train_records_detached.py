"""train records loss.detach(): Tensors without a graph, not Python floats."""
NOTEBOOK = "05_optimizer_training"
CELLS = {
    "task5_2_train": '''
def train(model, loss_fn, opt, x, y, epochs):
    losses = []
    for _ in range(epochs):
        opt.reset_grad()
        loss = loss_fn(model(x), y)
        losses.append(loss.detach())
        loss.backward()
        opt.step()
    return losses
''',
}
MUST_FAIL = ['test_train_returns_floats']
HINT = 'Task 5.2, rung 2 (a Python float)'
NOT_HINTS = ['graph alive']
VISIBLE = True
