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
MUST_FAIL = ["test_train_other_models"]
HINT = "loss function it is given"
VISIBLE = True
