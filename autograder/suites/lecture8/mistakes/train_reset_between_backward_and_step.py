"""train calls opt.reset_grad() between loss.backward() and opt.step(): the step finds no gradient, and the parameters never move."""
NOTEBOOK = "05_optimizer_training"
CELLS = {
    "task5_2_train": '''
def train(model, loss_fn, opt, x, y, epochs):
    losses = []
    for _ in range(epochs):
        loss = loss_fn(model(x), y)
        losses.append(loss.numpy().item())
        loss.backward()
        opt.reset_grad()
        opt.step()
    return losses
''',
}
MUST_FAIL = ['test_5_2_rung3_three_epochs']
HINT = 'Task 5.2, rung 3 (three epochs)'
VISIBLE = True
