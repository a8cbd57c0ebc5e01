"""Task 2.3 half fixed: the history gets a Python float, but total_loss += loss still chains
every batch's graph until the end of the epoch."""
NOTEBOOK = "02_detach"
CELLS = {
    "task2_3_train_fixed": '''
def train_fixed(model, batches, epochs, lr) -> list:
    opt = ndl.optim.SGD(model.parameters(), lr=lr)
    history = []
    for epoch in range(epochs):
        total_loss = 0.0
        for x, y in batches:
            loss = ((model(x) - y) ** 2).sum() / x.shape[0]
            opt.reset_grad()
            loss.backward()
            opt.step()
            total_loss += loss
        history.append(float((total_loss / len(batches)).numpy()))
    return history
''',
}
MUST_FAIL = ["test_2_3_rung6_nothing_kept_from_batch_to_batch", "test_fixed_memory_stays_flat"]
HINT = 'Task 2.3, rung 6 (nothing kept from batch to batch)'
VISIBLE = True
