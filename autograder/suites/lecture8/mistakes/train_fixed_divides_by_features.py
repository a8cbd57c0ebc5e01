"""Task 2.3 with the loss divided by x.shape[1] (the number of features) instead of x.shape[0] (the
batch size): the same where both are 1, as in the visible tests, another loss and another training
wherever they differ."""
NOTEBOOK = "02_detach"
CELLS = {
    "task2_3_train_fixed": '''
def train_fixed(model, batches, epochs, lr) -> list:
    opt = ndl.optim.SGD(model.parameters(), lr=lr)
    history = []
    for epoch in range(epochs):
        total_loss = 0.0
        for x, y in batches:
            loss = ((model(x) - y) ** 2).sum() / x.shape[1]
            opt.reset_grad()
            loss.backward()
            opt.step()
            total_loss += float(loss.numpy())
        history.append(total_loss / len(batches))
    return history
''',
}
MUST_FAIL = ['test_fixed_drawn_problems', 'test_fixed_memory_stays_flat']
HINT = "Task 2.3, rung 7 (drawn problems: train_leaky's losses and weights)"
