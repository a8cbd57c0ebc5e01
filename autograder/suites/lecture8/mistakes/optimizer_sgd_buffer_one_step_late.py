"""SGD momentum that moves p by the buffer as it was and only then adds the gradient to it:
every step uses the buffer of the step before (one step late). With a constant gradient the run
is PyTorch's, so only changing gradients show it."""
NOTEBOOK = "05_optimizer_training"
CELLS = {
    "task5_1_sgd": '''
class SGD(Optimizer):
    def __init__(self, params, lr, momentum=0.0):
        super().__init__(params)
        self.lr = lr
        self.momentum = momentum
        self.velocity = {}

    def step(self):
        for p in self.params:
            if p.grad is None:
                continue
            g = p.grad.data
            if self.momentum == 0:
                p.data = p.data - self.lr * g
                continue
            v = self.velocity.get(id(p), g)
            p.data = p.data - self.lr * v
            self.velocity[id(p)] = self.momentum * v + g
''',
}
MUST_FAIL = ['test_5_1_rung6_momentum_three_steps']
HINT = 'Task 5.1, rung 6 (momentum, three steps)'
NOT_HINTS = ["None", "plain SGD"]
VISIBLE = True
