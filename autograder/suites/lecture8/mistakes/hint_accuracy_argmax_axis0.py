"""accuracy takes the argmax over axis 0 (over the batch): predictions of the wrong length, and
comparing them with the labels is a numpy broadcast error. The hint is numpy's broadcast rule, not
needle's "never broadcasts" (audit case c08_acc_axis0)."""
NOTEBOOK = "08_train_digits"
CELLS = {
    "task8_3_accuracy": '''
def accuracy(model, loader) -> float:
    """Task 8.3: the fraction of the loader's samples whose largest logit (argmax over axis 1) is their label."""
    correct, count = 0, 0
    with ndl.no_grad():
        for X, y in loader:
            predicted = model(X).numpy().argmax(axis=0)
            correct += int((predicted == y.numpy()).sum())
            count += X.shape[0]
    return correct / count
''',
}
MUST_FAIL = ['test_8_3_rung1_one_batch_all_right']
HINT = 'Task 8.3, rung 1 (one batch, all right)'
NOT_HINTS = ['never broadcasts']
VISIBLE = True
