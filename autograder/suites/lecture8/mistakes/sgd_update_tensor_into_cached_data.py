"""sgd_update writes a Tensor into w.cached_data (the .data setter's job done by hand, without its
conversion): w's data is then a Tensor, not an array. The visible test raised inside np.allclose
with a hint about abs() (student audit, round 3)."""
NOTEBOOK = "02_detach"
CELLS = {"task2_2_sgd_update": '''
def sgd_update(w, grad, lr) -> None:
    w.cached_data = w.detach() - lr * grad.detach()
'''}
MUST_FAIL = ['test_2_2_rung1_one_step', 'test_sgd_update_drawn']
HINT = 'Task 2.2, rung 1 (one step)'
VISIBLE = True
