"""train calls the loss with the target first, loss_fn(y, model(x)): L2Loss is symmetric, so every
test with it passed (student audit, round 3: 18/18); a loss that is not symmetric is not."""
NOTEBOOK = "05_optimizer_training"
CELLS = {
    "task5_2_train": '''
def train(model, loss_fn, opt, x, y, epochs):
    losses = []
    for _ in range(epochs):
        opt.reset_grad()
        loss = loss_fn(y, model(x))
        losses.append(loss.numpy().item())
        loss.backward()
        opt.step()
    return losses
''',
}
MUST_FAIL = ['test_5_2_rung5_the_loss_function_given']
HINT = 'Task 5.2, rung 5 (the loss function given)'
VISIBLE = True
