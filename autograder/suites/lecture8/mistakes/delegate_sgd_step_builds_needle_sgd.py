"""Task 5.1: the student's own classes, but SGD.step hands the work to a needle.optim.SGD
(and loses the momentum buffer on the way)."""
NOTEBOOK = "05_optimizer_training"
CELLS = {
    "task5_1_sgd": '''
import functools


class SGD(Optimizer):
    """Task 5.1"""

    def __init__(self, params, lr, momentum=0.0):
        super().__init__(params)
        self.lr = lr
        self.momentum = momentum

    def step(self):
        make = functools.partial(ndl.optim.SGD, lr=self.lr, momentum=self.momentum)
        make([p for p in self.params if p.grad is not None]).step()
''',
}
MUST_FAIL = ["task:5.1"]
HINT = "Task 5.1 must be your own Optimizer and SGD"
VISIBLE = True
