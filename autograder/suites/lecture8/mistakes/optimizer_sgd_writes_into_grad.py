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
MUST_FAIL = ['test_5_1_rung2_plain_sgd_one_step', 'test_task_5_1_plain_sgd_on_values_drawn_for_this_submission']
HINT = 'Task 5.1, rung 2 (plain SGD, one step)'
NOT_HINTS = ["rebinds a name"]
VISIBLE = True
