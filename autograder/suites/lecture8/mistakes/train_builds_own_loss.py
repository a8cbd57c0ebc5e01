"""train ignores the loss function it is given and builds the lecture's L2Loss: right on the
lecture's runs, but another loss's shape makes .item() raise, and its values differ."""
NOTEBOOK = "05_optimizer_training"
CELLS = {
    "task5_2_train": '''
def train(model, loss_fn, opt, x, y, epochs):
    losses = []
    for _ in range(epochs):
        opt.reset_grad()
        loss = L2Loss()(model(x), y)
        losses.append(loss.numpy().item())
        loss.backward()
        opt.step()
    return losses
''',
}
MUST_FAIL = ['test_5_2_rung5_the_loss_function_given']
HINT = 'Task 5.2, rung 5 (the loss function given)'
VISIBLE = True
