"""train_epoch returns a plausible-looking constant and trains nothing (a trivial answer)."""
NOTEBOOK = "08_train_digits"
CELLS = {
    "task8_2_train_epoch": '''
def train_epoch(model, loss_fn, opt, loader):
    return 2.3
''',
}
MUST_FAIL = ["task:8.2"]
HINT = "once per batch"
VISIBLE = True
