"""SGD.step takes g = p.grad.numpy() and scales it in place (g *= lr) before the update: with
momentum the buffer is copied first, but a plain step writes lr * g into p.grad's own array."""
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
            g = p.grad.numpy()
            if self.momentum:
                v = self.buffers.get(id(p))
                v = g.copy() if v is None else self.momentum * v + g
                self.buffers[id(p)] = v
                g = v.copy()
            g *= self.lr
            p.data = p.numpy() - g
''',
}
MUST_FAIL = ["test_5_1_rung3_p_grad_only_read", "test_task_5_1_plain_sgd_on_values_drawn_for_this_submission"]
HINT = "Task 5.1, rung 3 (p.grad only read)"
VISIBLE = True
