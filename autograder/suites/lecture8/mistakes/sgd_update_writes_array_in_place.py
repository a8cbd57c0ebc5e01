"""sgd_update that subtracts in place in w's numpy array (w.cached_data -= ...): w holds the right
values, but every tensor that shares w's array (a detached snapshot taken before the step) changes
with it; the contract gives w a new array."""
NOTEBOOK = "02_detach"
CELLS = {
    "task2_2_sgd_update": '''
def sgd_update(w, grad, lr) -> None:
    w.cached_data -= lr * grad.numpy()
''',
}
MUST_FAIL = ['test_2_2_rung6_a_snapshot_taken_before_the_step_keeps_its_values']
HINT = 'Task 2.2, rung 6 (a snapshot taken before the step keeps its values)'
