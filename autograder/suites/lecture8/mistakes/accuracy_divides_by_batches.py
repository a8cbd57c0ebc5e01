"""accuracy divides the number of correct samples by the number of batches."""
NOTEBOOK = "08_train_digits"
CELLS = {
    "task8_3_accuracy": '''
def accuracy(model, loader):
    correct = 0
    for X, y in loader:
        correct += int((model(X).numpy().argmax(axis=1) == y.numpy()).sum())
    return correct / len(loader)
''',
}
MUST_FAIL = ['test_8_3_rung1_one_batch_all_right']
HINT = 'Task 8.3, rung 1 (one batch, all right)'
VISIBLE = True
