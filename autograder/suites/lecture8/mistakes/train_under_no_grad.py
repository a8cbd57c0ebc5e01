"""Task 2.3 "fixed" by running the whole loop under ndl.no_grad(): no graph is built at all,
so backward() has nothing to differentiate and raises."""
NOTEBOOK = "02_detach"
CELLS = {
    "task2_3_train_fixed": '''
def train_fixed(model, batches, epochs, lr) -> list:
    with ndl.no_grad():
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
            history.append(total_loss / len(batches))
    return history
''',
}
MUST_FAIL = ['test_2_3_rung1_one_epoch_of_one_batch', 'test_fixed_drawn_problems', 'test_fixed_memory_stays_flat']
HINT = 'Task 2.3, rung 1 (one epoch of one batch)'
