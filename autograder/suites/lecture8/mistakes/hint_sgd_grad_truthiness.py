"""SGD.step skips a parameter with `if not p.grad:`: a Tensor used as a condition raises needle's
TypeError (a Tensor's truth value is ambiguous) as soon as a gradient exists; the hint says to test
`is None` (audit case c05_sgd_grad_truthiness)."""
NOTEBOOK = "05_optimizer_training"
CELLS = {
    "task5_1_sgd": '''
class SGD(Optimizer):
    """Task 5.1: stochastic gradient descent with PyTorch's momentum.

    For every parameter p whose gradient g = p.grad is not None (the others are skipped):
        momentum == 0:  p <- p - lr * g
        momentum  > 0:  buf <- g at p's first update, then buf <- momentum * buf + g
                        p <- p - lr * buf
    The update goes through p.data: p stays the same object, a leaf, and no graph grows.
    """

    def __init__(self, params, lr, momentum=0.0):
        super().__init__(params)
        self.lr = lr
        self.momentum = momentum
        self.buffers = {}  # id(p) -> momentum buffer (a detached Tensor)

    def step(self):
        for p in self.params:
            if not p.grad:
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
MUST_FAIL = ['test_5_1_rung2_plain_sgd_one_step']
HINT = 'Task 5.1, rung 2 (plain SGD, one step)'
VISIBLE = True
