"""SGD.step updates every parameter without checking p.grad: a parameter whose grad is None
(it took no part in the loss) makes step() fail."""
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
            g = p.grad.data
            if self.momentum != 0:
                buf = self.buffers.get(id(p))
                buf = g if buf is None else self.momentum * buf + g
                self.buffers[id(p)] = buf
                g = buf
            p.data = p.data - self.lr * g
''',
}
MUST_FAIL = ['test_5_1_rung4_a_parameter_without_a_gradient_is_skipped']
HINT = 'Task 5.1, rung 4 (a parameter without a gradient is skipped)'
VISIBLE = True
