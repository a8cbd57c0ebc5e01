"""Optimizer.reset_grad sets every gradient to the number 0 instead of None."""
NOTEBOOK = "05_optimizer_training"
CELLS = {
    "task5_1_optimizer": '''
class Optimizer:
    def __init__(self, params):
        self.params = list(params)

    def reset_grad(self):
        for p in self.params:
            p.grad = 0

    def step(self):
        raise NotImplementedError()
''',
}
MUST_FAIL = ['test_reset_grad_sets_none']
HINT = 'Task 5.1, rung 1 (reset_grad clears a gradient)'
VISIBLE = True
