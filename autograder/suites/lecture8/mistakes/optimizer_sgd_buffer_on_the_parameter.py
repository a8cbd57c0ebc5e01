"""SGD stores the momentum buffer on the parameter itself (p.momentum_buffer), as an attribute."""
NOTEBOOK = "05_optimizer_training"
CELLS = {"task5_1_sgd": '''
class SGD(Optimizer):
    def __init__(self, params, lr, momentum=0.0):
        super().__init__(params)
        self.lr = lr
        self.momentum = momentum

    def step(self):
        for p in self.params:
            if p.grad is None:
                continue
            g = p.grad.data
            if self.momentum:
                if getattr(p, "momentum_buffer", None) is None:
                    p.momentum_buffer = g
                else:
                    p.momentum_buffer = self.momentum * p.momentum_buffer + g
                g = p.momentum_buffer
            p.data = p.data - self.lr * g
'''}
MUST_FAIL = ['test_5_1_rung5_momentum_the_first_step']
HINT = 'Task 5.1, rung 5 (momentum, the first step)'
VISIBLE = True
