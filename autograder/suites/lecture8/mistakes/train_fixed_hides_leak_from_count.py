"""Task 2.3 with the leak left in (total_loss += loss chains every batch's graph until the end of
the epoch) and hidden from the visible tests' count: needle's live_tensor_count is replaced by a
constant in the student's process. Only the memory the grader measures from outside sees it."""
NOTEBOOK = "02_detach"
CELLS = {
    "task2_3_train_fixed": '''
ndl.autograd.live_tensor_count = lambda: 0


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
MUST_FAIL = ['test_fixed_memory_stays_flat']
HINT = "Task 2.3, rung 8 (a bigger model on more batches: memory that stays flat)"
