"""train runs the model forward once, before the loop, and then calls backward() and step() on
that same loss every epoch: the recorded loss never changes, and every step uses the gradient
at the initial parameters (the parameters do move)."""
NOTEBOOK = "05_optimizer_training"
CELLS = {
    "task5_2_train": '''
def train(model, loss_fn, opt, x, y, epochs):
    losses = []
    loss = loss_fn(model(x), y)
    for _ in range(epochs):
        opt.reset_grad()
        losses.append(loss.numpy().item())
        loss.backward()
        opt.step()
    return losses
''',
}
MUST_FAIL = ['test_5_2_rung3_three_epochs']
HINT = 'Task 5.2, rung 3 (three epochs)'
NOT_HINTS = ["never moved", "opt.step()"]
VISIBLE = True
