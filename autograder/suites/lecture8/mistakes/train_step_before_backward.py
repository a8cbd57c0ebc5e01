"""train calls opt.step() before loss.backward(): right after reset_grad every gradient is
None, so no step ever moves a parameter and the loss never changes."""
NOTEBOOK = "05_optimizer_training"
CELLS = {
    "task5_2_train": '''
def train(model, loss_fn, opt, x, y, epochs):
    losses = []
    for _ in range(epochs):
        opt.reset_grad()
        loss = loss_fn(model(x), y)
        losses.append(loss.numpy().item())
        opt.step()
        loss.backward()
    return losses
''',
}
MUST_FAIL = ['test_5_2_rung3_three_epochs']
HINT = 'Task 5.2, rung 3 (three epochs)'
NOT_HINTS = ["never changes"]
VISIBLE = True
