"""train_epoch trains right and returns the right mean, but adds up the loss tensors themselves: the
total holds every batch's graph until the epoch ends (notebook 02's leak, again)."""
NOTEBOOK = "08_train_digits"
CELLS = {
    "task8_2_train_epoch": '''
def train_epoch(model, loss_fn, opt, loader):
    total, count = 0.0, 0
    for X, y in loader:
        opt.reset_grad()
        loss = loss_fn(model(X), y)
        total = total + loss * X.shape[0]
        count += X.shape[0]
        loss.backward()
        opt.step()
    return float(total.numpy()) / count
''',
}
MUST_FAIL = ['test_task_8_2_training_on_random_digits']
HINT = 'Task 8.2, rung 7 (training on random digits: repeated batches, the mean per sample, no graph kept (memory), an MLP with momentum)'
VISIBLE = False
