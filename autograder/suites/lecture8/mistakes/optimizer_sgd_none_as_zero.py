"""SGD takes a missing gradient (grad None) as zero: the momentum buffer decays and the parameter still moves."""
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
            g = p.grad.numpy() if p.grad is not None else np.zeros(p.shape, dtype=np.float32)
            if self.momentum:
                buf = self.buffers.get(id(p))
                buf = g if buf is None else self.momentum * buf + g
                self.buffers[id(p)] = buf
                g = buf
            p.data = p.numpy() - self.lr * g
''',
}
MUST_FAIL = ['test_5_1_rung8_a_missing_gradient_leaves_the_momentum_buffer']
HINT = 'Task 5.1, rung 8 (a missing gradient leaves the momentum buffer)'
VISIBLE = True
