"""sgd_update with the sign flipped: w + lr * grad climbs the loss instead of descending."""
NOTEBOOK = "02_detach"
CELLS = {
    "task2_2_sgd_update": '''
def sgd_update(w, grad, lr) -> None:
    w.data = w.data + lr * grad.data
''',
}
MUST_FAIL = ["task:2.2"]
HINT = "along the gradient"
VISIBLE = True
