"""train_epoch adds up the losses' numpy arrays (loss.numpy() times the batch size): the mean is
right, but it is a numpy float32, not a Python float."""
NOTEBOOK = "08_train_digits"
CELLS = {
    "task8_2_train_epoch": '''
def train_epoch(model, loss_fn, opt, loader) -> float:
    total, count = 0.0, 0
    for X, y in loader:
        opt.reset_grad()
        loss = loss_fn(model(X), y)
        total += loss.numpy() * X.shape[0]
        count += X.shape[0]
        loss.backward()
        opt.step()
    return total / count
''',
}
MUST_FAIL = ['test_task_8_2_training_on_random_digits']
HINT = 'Task 8.2, rung 7 (training on random digits: repeated batches, the mean per sample, no graph kept (memory), an MLP with momentum)'
NOT_HINTS = ["item()", "divide by the number of samples"]
VISIBLE = False
