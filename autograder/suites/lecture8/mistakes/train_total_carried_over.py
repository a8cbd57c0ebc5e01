"""Task 2.3 with the total started once, before the epochs: each epoch's "mean" adds the
losses of every epoch so far."""
NOTEBOOK = "02_detach"
CELLS = {
    "task2_3_train_fixed": '''
def train_fixed(model, batches, epochs, lr) -> list:
    opt = ndl.optim.SGD(model.parameters(), lr=lr)
    history = []
    total_loss = 0.0
    for epoch in range(epochs):
        for x, y in batches:
            loss = ((model(x) - y) ** 2).sum() / x.shape[0]
            opt.reset_grad()
            loss.backward()
            opt.step()
            total_loss += float(loss.numpy())
        history.append(total_loss / len(batches))
    return history
''',
}
MUST_FAIL = ['test_2_3_rung4_two_epochs_each_epoch_s_own_mean', 'test_fixed_drawn_problems', 'test_fixed_memory_stays_flat']
HINT = "Task 2.3, rung 4 (two epochs: each epoch's own mean)"
VISIBLE = True
