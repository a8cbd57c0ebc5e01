"""accuracy returns a percentage (100 * correct / count): named as such (it got two different
hidden messages, and the visible 1.0 / 0.0 one)."""
NOTEBOOK = "08_train_digits"
CELLS = {
    "task8_3_accuracy": '''
def accuracy(model, loader) -> float:
    correct, count = 0, 0
    for X, y in loader:
        predicted = model(X).numpy().argmax(axis=1)
        correct += int((predicted == y.numpy()).sum())
        count += X.shape[0]
    return 100 * correct / count
''',
}
MUST_FAIL = ['test_8_3_rung1_one_batch_all_right']
HINT = 'Task 8.3, rung 1 (one batch, all right)'
VISIBLE = True
