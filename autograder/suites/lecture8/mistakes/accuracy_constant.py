"""accuracy returns a constant, whatever the model (a trivial answer)."""
NOTEBOOK = "08_train_digits"
CELLS = {
    "task8_3_accuracy": '''
def accuracy(model, loader):
    return 0.5
''',
}
MUST_FAIL = ['test_8_3_rung1_one_batch_all_right']
HINT = 'Task 8.3, rung 1 (one batch, all right)'
VISIBLE = True
