"""Optimizer.reset_grad rebinds the loop's name (p = None): no parameter's gradient is cleared."""
NOTEBOOK = "05_optimizer_training"
CELLS = {
    "task5_1_optimizer": '''
class Optimizer:
    def __init__(self, params):
        self.params = list(params)

    def reset_grad(self):
        for p in self.params:
            p = None

    def step(self):
        raise NotImplementedError()
''',
}
MUST_FAIL = ['test_reset_grad_sets_none']
HINT = 'Task 5.1, rung 1 (reset_grad clears a gradient)'
VISIBLE = True
