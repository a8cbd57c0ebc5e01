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
MUST_FAIL = ["test_sgd_momentum_trajectory", "test_sgd_skips_none_grads"]
HINT = 'one buffer per parameter'
VISIBLE = True
