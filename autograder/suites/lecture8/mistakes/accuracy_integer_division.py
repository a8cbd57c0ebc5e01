"""accuracy divides with `//`: integer division gives 1 when every sample is right and 0 otherwise,
an int, not the fraction."""
NOTEBOOK = "08_train_digits"
CELLS = {
    "task8_3_accuracy": '''
def accuracy(model, loader) -> float:
    correct, count = 0, 0
    with ndl.no_grad():
        for X, y in loader:
            correct += int((model(X).numpy().argmax(axis=1) == y.numpy()).sum())
            count += X.shape[0]
    return correct // count
''',
}
MUST_FAIL = ['test_8_3_rung2_one_batch_one_wrong']
HINT = 'Task 8.3, rung 2 (one batch, one wrong)'
VISIBLE = True
