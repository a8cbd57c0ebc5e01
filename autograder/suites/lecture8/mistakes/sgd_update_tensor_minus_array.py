"""sgd_update subtracts a numpy array from a Tensor (w.data - lr * grad.numpy()): needle refuses
a Tensor op with an array; the hint names the two types at the student's line, not the .data
setter's shape or dtype check (the visible cell shows the same cause at the line in the kernel)."""
NOTEBOOK = "02_detach"
CELLS = {
    "task2_2_sgd_update": '''
def sgd_update(w, grad, lr):
    w.data = w.data - lr * grad.numpy()
''',
}
MUST_FAIL = ['test_2_2_rung1_one_step', 'test_2_2_rung6_a_snapshot_taken_before_the_step_keeps_its_values', 'test_sgd_update_drawn']
HINT = 'Task 2.2, rung 1 (one step)'
NOT_HINTS = ["the .data setter refuses"]
