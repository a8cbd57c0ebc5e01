"""SGD keeps a single momentum buffer for all its parameters instead of one per parameter."""
NOTEBOOK = "05_optimizer_training"
CELLS = {
    "task5_1_sgd": '''
class SGD(Optimizer):
    def __init__(self, params, lr, momentum=0.0):
        super().__init__(params)
        self.lr = lr
        self.momentum = momentum
        self.v = None

    def step(self):
        for p in self.params:
            if p.grad is None:
                continue
            g = p.grad.data
            if self.momentum:
                self.v = g if self.v is None else self.momentum * self.v + g
                g = self.v
            p.data = p.data - self.lr * g
''',
}
MUST_FAIL = ['test_5_1_rung9_one_momentum_buffer_per_parameter']
HINT = 'Task 5.1, rung 9 (one momentum buffer per parameter)'
VISIBLE = True
