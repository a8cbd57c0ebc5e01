"""SGD.step writes the update into the gradient, `p.grad.data = p.data - lr * g`, instead of into
the parameter: the parameters never move, and p.grad holds what they should have become (audit
case 05c). One mistake, one hint: step() changed p.grad; no name was rebound."""
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
            p.grad.data = p.data - self.lr * g
''',
}
MUST_FAIL = ["test_sgd_plain_trajectory", "test_sgd_momentum_trajectory", "test_sgd_skips_none_grads",
             "test_sgd_keeps_identity_no_graph", "test_sgd_same_gradient_kept"]
HINT = "step() changed p.grad"
NOT_HINTS = ["rebinds a name"]
VISIBLE = True
