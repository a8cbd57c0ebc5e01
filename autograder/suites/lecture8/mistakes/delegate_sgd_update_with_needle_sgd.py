"""Task 2.2 answered with a one-step needle.optim.SGD."""
NOTEBOOK = "02_detach"
CELLS = {
    "task2_2_sgd_update": '''
def sgd_update(w, grad, lr) -> None:
    w.grad = grad
    ndl.optim.SGD([w], lr=lr).step()
    w.grad = None
''',
}
MUST_FAIL = ["task:2.2"]
HINT = "Task 2.2 must be your own"
VISIBLE = True
