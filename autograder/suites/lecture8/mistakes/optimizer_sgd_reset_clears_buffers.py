"""SGD overrides reset_grad to clear its momentum buffers too ("reset" taken as all of its state):
in a training loop reset_grad runs before every step, so momentum never builds up (student audit,
round 3: full marks before, and the notebook's momentum runs printed plain SGD's numbers)."""
NOTEBOOK = "05_optimizer_training"
CELLS = {"task5_1_sgd": '''
class SGD(Optimizer):
    def __init__(self, params, lr, momentum=0.0):
        super().__init__(params)
        self.lr = lr
        self.momentum = momentum
        self.u = {}

    def reset_grad(self):
        super().reset_grad()
        self.u = {}

    def step(self):
        for p in self.params:
            if p.grad is None:
                continue
            g = p.grad.data
            if self.momentum:
                self.u[id(p)] = g if id(p) not in self.u else self.momentum * self.u[id(p)] + g
                g = self.u[id(p)]
            p.data = p.data - self.lr * g
'''}
MUST_FAIL = ['test_5_1_rung7_momentum_with_reset_grad_between_the_steps']
HINT = 'Task 5.1, rung 7 (momentum with reset_grad between the steps)'
VISIBLE = True
