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
MUST_FAIL = ['test_train_lecture_losses', 'test_train_other_models', 'test_train_clears_stale_gradients']
HINT = 'what p.grad holds when it is called'
VISIBLE = True
