"""Trivial answer to Task 2.2: sgd_update does nothing and returns None."""
NOTEBOOK = "02_detach"
CELLS = {
    "task2_2_sgd_update": '''
def sgd_update(w, grad, lr) -> None:
    return None
''',
}
MUST_FAIL = ['test_2_2_rung1_one_step', 'test_sgd_update_drawn']
HINT = 'Task 2.2, rung 1 (one step)'
