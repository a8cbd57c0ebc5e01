"""Trivial answer to Task 2.3: train_fixed returns a constant history without training."""
NOTEBOOK = "02_detach"
CELLS = {
    "task2_3_train_fixed": '''
def train_fixed(model, batches, epochs, lr) -> list:
    return [0.0] * epochs
''',
}
MUST_FAIL = ["task:2.3"]
HINT = "no longer trains"
