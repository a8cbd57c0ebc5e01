"""sgd_update with the sign flipped: w + lr * grad climbs the loss instead of descending."""
NOTEBOOK = "02_detach"
CELLS = {
    "task2_2_sgd_update": '''
def sgd_update(w, grad, lr) -> None:
    w.data = w.data + lr * grad.data
''',
}
MUST_FAIL = ['test_2_2_rung1_one_step', 'test_sgd_update_drawn']
HINT = 'Task 2.2, rung 1 (one step)'
VISIBLE = True
