"""accuracy collects the predictions in one pass over the loader and the labels in a second pass: right
when the loader keeps its order, wrong when it shuffles (each pass, each iter(loader), draws a new
order)."""
NOTEBOOK = "08_train_digits"
CELLS = {
    "task8_3_accuracy": '''
def accuracy(model, loader) -> float:
    with ndl.no_grad():
        predicted = np.concatenate([model(X).numpy().argmax(axis=1) for X, _ in loader])
    labels = np.concatenate([y.numpy() for _, y in loader])
    return float((predicted == labels).mean())
''',
}
MUST_FAIL = ['test_task_8_3_random_data']
HINT = 'Task 8.3, rung 4 (random data: a partly right classifier, shuffled and unequal batches, a perfect and an always-wrong model)'
