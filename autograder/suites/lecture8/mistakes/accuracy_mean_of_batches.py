"""accuracy averages the per-batch accuracies: the smaller last batch counts as much as a full one."""
NOTEBOOK = "08_train_digits"
CELLS = {
    "task8_3_accuracy": '''
def accuracy(model, loader):
    per_batch = []
    for X, y in loader:
        per_batch.append(float(np.mean(model(X).numpy().argmax(axis=1) == y.numpy())))
    return sum(per_batch) / len(per_batch)
''',
}
MUST_FAIL = ['test_8_3_rung3_batches_of_unequal_size']
HINT = 'Task 8.3, rung 3 (batches of unequal size)'
VISIBLE = True
