"""accuracy returns a constant, whatever the model (a trivial answer)."""
NOTEBOOK = "08_train_digits"
CELLS = {
    "task8_3_accuracy": '''
def accuracy(model, loader):
    return 0.5
''',
}
MUST_FAIL = ["task:8.3"]
HINT = "argmax over the classes"
VISIBLE = True
