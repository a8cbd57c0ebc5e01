"""SGD.step scales the gradient's own array in place (`step = p.grad.numpy(); step *= self.lr`) to get
the step: the parameters move right, but `numpy()` hands out the Tensor's array itself, so p.grad now
holds lr times the gradient (a second optimizer, a gradient check or a logged norm reads a wrong
gradient)."""
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
                buf = self.buffers.get(id(p))
                buf = g if buf is None else self.momentum * buf + g
                self.buffers[id(p)] = buf
                g = buf
            step = g.numpy()
            step *= self.lr
            p.data = p.data - ndl.Tensor(step, requires_grad=False)
''',
}
MUST_FAIL = ['test_5_1_rung3_p_grad_only_read']
HINT = 'Task 5.1, rung 3 (p.grad only read)'
VISIBLE = True
