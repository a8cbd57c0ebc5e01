"""sgd_update that switches w's requires_grad off so that the step records no graph, and never
switches it back: w's values are right, but it is no longer trainable."""
NOTEBOOK = "02_detach"
CELLS = {
    "task2_2_sgd_update": '''
def sgd_update(w, grad, lr) -> None:
    w.requires_grad = False  # no graph for the update
    w.data = w + (-lr) * grad
''',
}
MUST_FAIL = ['test_2_2_rung4_w_stays_trainable', 'test_sgd_update_drawn']
HINT = 'Task 2.2, rung 4 (w stays trainable)'
VISIBLE = True
