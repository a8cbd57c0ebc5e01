"""train_epoch clears the gradients at the end of each batch, after the step, instead of before its
backward(): right on a fresh model, but a gradient already in p.grad when the epoch starts (a
gradient check, an earlier loss) reaches the first step."""
NOTEBOOK = "08_train_digits"
CELLS = {
    "task8_2_train_epoch": '''
def train_epoch(model, loss_fn, opt, loader) -> float:
    total, count = 0.0, 0
    for X, y in loader:
        loss = loss_fn(model(X), y)
        total += loss.numpy().item() * X.shape[0]
        count += X.shape[0]
        loss.backward()
        opt.step()
        opt.reset_grad()
    return total / count
''',
}
MUST_FAIL = ['test_8_2_rung6_gradients_left_before_the_epoch']
HINT = 'Task 8.2, rung 6 (gradients left before the epoch)'
VISIBLE = True
