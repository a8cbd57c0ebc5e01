"""accuracy counts loader.batch_size samples for every batch: right when the batch size divides
the number of samples, too low when the last batch is smaller (25 samples in batches of 8 are
counted as 32)."""
NOTEBOOK = "08_train_digits"
CELLS = {
    "task8_3_accuracy": '''
def accuracy(model, loader) -> float:
    correct, count = 0, 0
    with ndl.no_grad():
        for X, y in loader:
            predicted = model(X).numpy().argmax(axis=1)
            correct += int((predicted == y.numpy()).sum())
            count += loader.batch_size
    return correct / count
''',
}
MUST_FAIL = ['test_8_3_rung3_batches_of_unequal_size']
HINT = 'Task 8.3, rung 3 (batches of unequal size)'
NOT_HINTS = ["argmax"]
VISIBLE = True
