"""reset_grad deletes the attribute (del p.grad) instead of setting it to None: the next read of
p.grad raises. The grader said only that an attribute was missing, "while no line of yours was
running" (student audit, round 2)."""
NOTEBOOK = "05_optimizer_training"
CELLS = {
    "task5_1_optimizer": '''
class Optimizer:
    def __init__(self, params):
        self.params = list(params)

    def reset_grad(self):
        for p in self.params:
            del p.grad

    zero_grad = reset_grad

    def step(self):
        raise NotImplementedError()
''',
}
MUST_FAIL = ['test_reset_grad_sets_none']
HINT = 'Task 5.1, rung 1 (reset_grad clears a gradient)'
VISIBLE = True
