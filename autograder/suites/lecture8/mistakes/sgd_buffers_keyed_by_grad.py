"""SGD looks its momentum buffers up by id(p.grad): p.grad is a new Tensor at every step, so no step
finds the buffer of the step before (unless an id is reused), and the parameters move as plain SGD
would. Three tests gave three messages, none naming the key (student audit, round 2)."""
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
            if self.momentum != 0:
                buf = self.buffers.get(id(p.grad))
                buf = g if buf is None else self.momentum * buf + g
                self.buffers[id(p.grad)] = buf
                g = buf
            p.data = p.data - self.lr * g
''',
}
MUST_FAIL = ['test_5_1_rung6_momentum_three_steps']
HINT = 'Task 5.1, rung 6 (momentum, three steps)'
VISIBLE = True
