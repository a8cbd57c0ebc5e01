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
MUST_FAIL = ["test_train_lecture_losses", "test_train_other_models", "test_train_clears_stale_gradients"]
HINT = "never moved the parameters"
NOT_HINTS = ["never changes"]
VISIBLE = True
