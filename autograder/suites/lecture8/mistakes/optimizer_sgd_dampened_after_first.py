"""SGD momentum that starts right (buf = g at the first step) but then averages, buf = momentum *
buf + (1 - momentum) * g: PyTorch's dampening = momentum applied after the first step. With a
constant gradient it moves exactly as plain SGD, so only changing gradients show it."""
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
            if self.momentum:
                if id(p) in self.buffers:
                    self.buffers[id(p)] = self.momentum * self.buffers[id(p)] + (1 - self.momentum) * g
                else:
                    self.buffers[id(p)] = g
                g = self.buffers[id(p)]
            p.data = p.data - self.lr * g
''',
}
MUST_FAIL = ['test_5_1_rung6_momentum_three_steps']
HINT = 'Task 5.1, rung 6 (momentum, three steps)'
NOT_HINTS = ["plain SGD", "None"]
VISIBLE = True
