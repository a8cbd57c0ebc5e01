"""train records loss.numpy().mean(): the right value, whatever the loss's shape, but a numpy float32
scalar, not a Python float."""
NOTEBOOK = "05_optimizer_training"
CELLS = {
    "task5_2_train": '''
def train(model, loss_fn, opt, x, y, epochs) -> list:
    losses = []
    for _ in range(epochs):
        opt.reset_grad()
        loss = loss_fn(model(x), y)
        losses.append(loss.numpy().mean())
        loss.backward()
        opt.step()
    return losses
''',
}
MUST_FAIL = ["test_5_2_rung2_a_python_float", "test_train_returns_floats"]
HINT = "Task 5.2, rung 2 (a Python float)"  # a float32 numpy scalar is not one (a float64 is a float)
VISIBLE = True
