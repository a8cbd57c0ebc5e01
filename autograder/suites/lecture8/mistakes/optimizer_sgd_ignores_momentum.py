"""SGD keeps a momentum buffer but moves each parameter by lr * g, not by lr * buf: with
momentum it behaves as plain SGD."""
NOTEBOOK = "05_optimizer_training"
CELLS = {
    "task5_1_sgd": '''
class SGD(Optimizer):
    def __init__(self, params, lr, momentum=0.0):
        super().__init__(params)
        self.lr = lr
        self.momentum = momentum
        self.buffers = {}

    def step(self):
        for p in self.params:
            if p.grad is None:
                continue
            g = p.grad.data
            buf = self.buffers.get(id(p))
            self.buffers[id(p)] = g if buf is None else self.momentum * buf + g
            p.data = p.data - self.lr * g
''',
}
MUST_FAIL = ['test_5_1_rung6_momentum_three_steps']
HINT = 'Task 5.1, rung 6 (momentum, three steps)'
VISIBLE = True
