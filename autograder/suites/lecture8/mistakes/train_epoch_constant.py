"""train_epoch returns a plausible-looking constant and trains nothing (a trivial answer)."""
NOTEBOOK = "08_train_digits"
CELLS = {
    "task8_2_train_epoch": '''
def train_epoch(model, loss_fn, opt, loader):
    return 2.3
''',
}
MUST_FAIL = ['test_8_2_rung1_one_batch']
HINT = 'Task 8.2, rung 1 (one batch)'
VISIBLE = True
