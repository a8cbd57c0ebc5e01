"""SGD steps with the lecture's learning rate written as a number, 0.1, instead of self.lr: right
whenever lr is 0.1, wrong for any other."""
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
            p.data = p.data - 0.1 * g
''',
}
MUST_FAIL = ['test_task_5_1_plain_sgd_on_values_drawn_for_this_submission']
HINT = 'Task 5.1, rung 13 (plain SGD on values drawn for this submission: several steps, lrs and shapes; the same float32 leaves)'
