"""train records float(loss.numpy()), which NumPy refuses for an array of shape (1,)."""
NOTEBOOK = "05_optimizer_training"
CELLS = {
    "task5_2_train": '''
def train(model, loss_fn, opt, x, y, epochs):
    losses = []
    for _ in range(epochs):
        opt.reset_grad()
        loss = loss_fn(model(x), y)
        losses.append(float(loss.numpy()))
        loss.backward()
        opt.step()
    return losses
''',
}
MUST_FAIL = ['task:5.2']
HINT = 'Task 5.2, rung 1 (one loss per epoch)'
VISIBLE = True
