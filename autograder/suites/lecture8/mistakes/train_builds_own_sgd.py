"""train ignores the optimizer it is given and builds its own SGD with the lecture's learning
rate: right on the lecture's run, wrong with any other optimizer."""
NOTEBOOK = "05_optimizer_training"
CELLS = {
    "task5_2_train": '''
def train(model, loss_fn, opt, x, y, epochs):
    sgd = SGD(model.parameters(), lr=0.01)
    losses = []
    for _ in range(epochs):
        sgd.reset_grad()
        loss = loss_fn(model(x), y)
        losses.append(loss.numpy().item())
        loss.backward()
        sgd.step()
    return losses
''',
}
MUST_FAIL = ['test_5_2_rung4_the_optimizer_given']
HINT = 'Task 5.2, rung 4 (the optimizer given)'
VISIBLE = True
