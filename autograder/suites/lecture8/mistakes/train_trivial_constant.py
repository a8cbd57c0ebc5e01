"""Trivial answer to Task 2.3: train_fixed returns a constant history without training."""
NOTEBOOK = "02_detach"
CELLS = {
    "task2_3_train_fixed": '''
def train_fixed(model, batches, epochs, lr) -> list:
    return [0.0] * epochs
''',
}
MUST_FAIL = ['test_2_3_rung1_one_epoch_of_one_batch', 'test_fixed_drawn_problems', 'test_fixed_memory_stays_flat']
HINT = 'Task 2.3, rung 1 (one epoch of one batch)'
