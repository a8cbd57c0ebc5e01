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
MUST_FAIL = ["test_8_2_rung2_a_python_float", "test_task_8_2_training_on_random_digits"]
HINT = "Task 8.2, rung 2 (a Python float)"  # a float32 numpy scalar is not one (a float64 is a float)
NOT_HINTS = ["item()", "divide by the number of samples"]
VISIBLE = True
