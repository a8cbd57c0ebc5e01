"""Trivial answer to Task 5.1: reset_grad and step do nothing."""
NOTEBOOK = "05_optimizer_training"
CELLS = {
    "task5_1_optimizer": '''
class Optimizer:
    def __init__(self, params):
        self.params = list(params)

    def reset_grad(self):
        pass

    def step(self):
        raise NotImplementedError()
''',
    "task5_1_sgd": '''
class SGD(Optimizer):
    def __init__(self, params, lr, momentum=0.0):
        super().__init__(params)
        self.lr = lr
        self.momentum = momentum

    def step(self):
        pass
''',
}
MUST_FAIL = ['task:5.1']
HINT = 'Task 5.1, rung 1 (reset_grad clears a gradient)'
VISIBLE = True
