"""SGD keeps its momentum buffers in a class attribute (buffers = {} in the class body), keyed by
id(p): every SGD shares them, and a later optimizer finds the buffer of an earlier parameter whose
id was reused (a shape mismatch, or a stale value). It passed the visible tests; the grader named
a shape mismatch in needle's add (student audit, round 2)."""
NOTEBOOK = "05_optimizer_training"
CELLS = {
    "task5_1_sgd": '''
class SGD(Optimizer):
    buffers = {}

    def __init__(self, params, lr, momentum=0.0):
        super().__init__(params)
        self.lr = lr
        self.momentum = momentum

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
MUST_FAIL = ['test_5_1_rung10_a_new_sgd_starts_without_buffers']
HINT = 'Task 5.1, rung 10 (a new SGD starts without buffers)'
VISIBLE = True
