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
MUST_FAIL = ['task:8.3']
HINT = 'divides by the number of batches'
VISIBLE = True
