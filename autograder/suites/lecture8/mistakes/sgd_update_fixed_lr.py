"""sgd_update with the notebook's learning rate written in (0.1) instead of its lr argument: right
wherever lr is 0.1, as in the visible tests' step, wrong for any other learning rate."""
NOTEBOOK = "02_detach"
CELLS = {
    "task2_2_sgd_update": '''
def sgd_update(w, grad, lr) -> None:
    w.data = w.data + (-0.1) * grad.data
''',
}
MUST_FAIL = ['test_sgd_update_drawn']
HINT = 'Task 2.2, rung 7 (drawn shapes, dtypes and learning rates; w held by a list, a dict and a Module; 1,000 steps)'
