"""accuracy compares the largest logit's value (max) with the label instead of its position
(argmax). It was told "one argmax over the whole batch" (a different slip) and, elsewhere, the
1.0 / 0.0 message: one hint now, hidden and visible."""
NOTEBOOK = "08_train_digits"
CELLS = {
    "task8_3_accuracy": '''
def accuracy(model, loader) -> float:
    correct, count = 0, 0
    for X, y in loader:
        predicted = model(X).numpy().max(axis=1)
        correct += int((predicted == y.numpy()).sum())
        count += X.shape[0]
    return correct / count
''',
}
MUST_FAIL = ['test_8_3_rung1_one_batch_all_right']
HINT = 'Task 8.3, rung 1 (one batch, all right)'
VISIBLE = True
