"""Task 2.3 with the optimizer's step lost while moving lines: the losses are recorded as Python
floats, but the model never changes (its first epoch's loss is still right)."""
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
            total_loss += float(loss.numpy())
        history.append(total_loss / len(batches))
    return history
''',
}
MUST_FAIL = ['test_2_3_rung3_the_model_trained', 'test_fixed_drawn_problems', 'test_fixed_memory_stays_flat']
HINT = 'Task 2.3, rung 3 (the model trained)'
VISIBLE = True
