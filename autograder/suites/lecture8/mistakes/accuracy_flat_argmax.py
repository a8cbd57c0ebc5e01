"""accuracy takes argmax() of the whole batch of logits, without an axis."""
NOTEBOOK = "08_train_digits"
CELLS = {
    "task8_3_accuracy": '''
def accuracy(model, loader):
    correct, count = 0, 0
    for X, y in loader:
        predicted = model(X).numpy().argmax()
        correct += int((predicted == y.numpy()).sum())
        count += X.shape[0]
    return correct / count
''',
}
MUST_FAIL = ['test_8_3_rung1_one_batch_all_right']
HINT = 'Task 8.3, rung 1 (one batch, all right)'
VISIBLE = True
