"""SGD's momentum buffer decays by the lecture's 0.9 written as a number, not by self.momentum: right
whenever momentum is 0.9, wrong for any other momentum."""
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
                buf = g if buf is None else 0.9 * buf + g
                self.buffers[id(p)] = buf
                g = buf
            p.data = p.data - self.lr * g
''',
}
MUST_FAIL = ['test_task_5_1_momentum_on_values_drawn_for_this_submission']
HINT = 'Task 5.1, rung 14 (momentum on values drawn for this submission: longer runs, other momenta, missing and kept gradients)'
