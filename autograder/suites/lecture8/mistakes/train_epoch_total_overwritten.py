"""Task 2.3 with the accumulation lost: total_loss = float(...) overwrites instead of adding,
so each epoch's "mean" is the last batch's loss divided by the number of batches."""
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
            total_loss = float(loss.numpy())
        history.append(total_loss / len(batches))
    return history
''',
}
MUST_FAIL = ['test_2_3_rung5_two_batches_the_mean_over_the_batches', 'test_fixed_drawn_problems', 'test_fixed_memory_stays_flat']
HINT = 'Task 2.3, rung 5 (two batches: the mean over the batches)'
VISIBLE = True
