"""Task 2.3 fixed with loss.detach(): no graph is kept, but the history holds needle tensors
(one per epoch), not Python floats."""
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
            total_loss += loss.detach()
        history.append(total_loss / len(batches))
    return history
''',
}
MUST_FAIL = ['test_2_3_rung2_python_floats', 'test_fixed_drawn_problems', 'test_fixed_memory_stays_flat']
HINT = 'Task 2.3, rung 2 (Python floats)'
NOT_HINTS = ["graph stays alive"]
VISIBLE = True
