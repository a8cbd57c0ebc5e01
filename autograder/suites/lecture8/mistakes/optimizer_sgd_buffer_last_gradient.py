"""SGD momentum whose buffer keeps only the last gradient: momentum * (the previous step's gradient)
+ g instead of momentum * buf + g. The first two steps are PyTorch's; from the third the earlier
gradients are missing (a two-step check passes it)."""
NOTEBOOK = "05_optimizer_training"
CELLS = {
    "task5_1_sgd": '''
class SGD(Optimizer):
    def __init__(self, params, lr, momentum=0.0):
        super().__init__(params)
        self.lr = lr
        self.momentum = momentum
        self.previous = {}

    def step(self):
        for p in self.params:
            if p.grad is None:
                continue
            g = p.grad.data
            last = self.previous.get(id(p))
            self.previous[id(p)] = g
            if self.momentum and last is not None:
                g = self.momentum * last + g
            p.data = p.data - self.lr * g
''',
}
MUST_FAIL = ['test_5_1_rung6_momentum_three_steps']
HINT = 'Task 5.1, rung 6 (momentum, three steps)'
NOT_HINTS = ["None", "plain SGD", "one step late"]
VISIBLE = True
