"""train written as a do-while loop (the test after the epoch): right for one epoch or more, but
epochs=0 still trains once and returns one loss."""
NOTEBOOK = "05_optimizer_training"
CELLS = {
    "task5_2_train": '''
def train(model, loss_fn, opt, x, y, epochs) -> list:
    losses = []
    epoch = 0
    while True:
        opt.reset_grad()
        loss = loss_fn(model(x), y)
        losses.append(float(loss.numpy().sum()))
        loss.backward()
        opt.step()
        epoch += 1
        if epoch >= epochs:
            break
    return losses
''',
}
MUST_FAIL = ["test_train_returns_floats"]
HINT = "Task 5.2, rung 8 (Python floats for every loss shape, none for 0 epochs)"
