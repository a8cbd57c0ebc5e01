"""Task 2.3 with the leak left in: train_leaky's loop copied unchanged (total_loss += loss keeps
every batch's graph, and the history keeps every epoch's)."""
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
        history.append(total_loss / len(batches))
    return history
''',
}
MUST_FAIL = ['test_2_3_rung2_python_floats', 'test_fixed_drawn_problems', 'test_fixed_memory_stays_flat']
HINT = 'Task 2.3, rung 2 (Python floats)'
VISIBLE = True
