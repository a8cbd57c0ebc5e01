"""SGD overrides reset_grad with one that does nothing, "so that the momentum buffers survive it": the
buffers do survive, but the gradients are never cleared (Optimizer's reset_grad is right; SGD's
hides it). Every one-step check passes, since each sets p.grad anew."""
NOTEBOOK = "05_optimizer_training"
CELLS = {
    "task5_1_sgd": '''
class SGD(Optimizer):
    def __init__(self, params, lr, momentum=0.0):
        super().__init__(params)
        self.lr = lr
        self.momentum = momentum
        self.buffers = {}

    def reset_grad(self):
        pass  # keep the momentum buffers

    def step(self):
        for p in self.params:
            if p.grad is None:
                continue
            g = p.grad.data
            if self.momentum != 0:
                buf = self.buffers.get(id(p))
                buf = g if buf is None else self.momentum * buf + g
                self.buffers[id(p)] = buf
                g = buf
            p.data = p.data - self.lr * g
''',
}
MUST_FAIL = ['test_reset_grad_sets_none']
HINT = 'Task 5.1, rung 12 (reset_grad on several parameters, of Optimizer and of SGD)'
