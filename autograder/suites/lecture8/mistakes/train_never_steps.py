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
MUST_FAIL = ["test_train_lecture_losses", "test_train_other_models", "test_train_clears_stale_gradients"]
HINT = "never moved the parameters"
NOT_HINTS = ["forward in every epoch"]
VISIBLE = True
