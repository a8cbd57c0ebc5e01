"""Trivial answer to Task 2.2: sgd_update does nothing and returns None."""
NOTEBOOK = "02_detach"
CELLS = {
    "task2_2_sgd_update": '''
def sgd_update(w, grad, lr) -> None:
    return None
''',
}
MUST_FAIL = ["task:2.2"]
HINT = "w is unchanged"
