"""SGD.step moves each parameter by its whole gradient (or buffer): the learning rate is forgotten."""
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
                buf = self.buffers.get(id(p))
                buf = g if buf is None else self.momentum * buf + g
                self.buffers[id(p)] = buf
                g = buf
            p.data = p.data - g
''',
}
MUST_FAIL = ['test_sgd_plain_trajectory', 'test_sgd_momentum_trajectory', 'test_sgd_skips_none_grads', 'test_sgd_same_gradient_kept']
HINT = 'multiply by the learning rate'
NOT_HINTS = ["PyTorch's rule", 'None']
VISIBLE = True
