"""train clears the gradients, computes and records the loss and backpropagates, but never calls
opt.step(): the parameters never move and the recorded loss never changes."""
NOTEBOOK = "05_optimizer_training"
CELLS = {
    "task5_2_train": '''
def train(model, loss_fn, opt, x, y, epochs):
    losses = []
    for _ in range(epochs):
        opt.reset_grad()
        loss = loss_fn(model(x), y)
        losses.append(loss.numpy().item())
        loss.backward()
    return losses
''',
}
MUST_FAIL = ['test_5_2_rung3_three_epochs']
HINT = 'Task 5.2, rung 3 (three epochs)'
NOT_HINTS = ["forward in every epoch"]
VISIBLE = True
