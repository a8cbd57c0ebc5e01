"""ScaleAdd.forward computes x * s + b in numpy and wraps the result in a new Tensor: the
value is right but no gradient reaches s and b."""
NOTEBOOK = "04_module_parameters"
CELLS = {
    "task4_2_scale_add": '''
class ScaleAdd(Module):
    def __init__(self, init_s=1, init_b=0):
        super().__init__()
        self.s = Parameter([init_s], dtype="float32")
        self.b = Parameter([init_b], dtype="float32")

    def forward(self, x):
        return ndl.Tensor(x.numpy() * self.s.numpy() + self.b.numpy())


class MultiPathScaleAdd(Module):
    def __init__(self):
        super().__init__()
        self.path0 = ScaleAdd()
        self.path1 = ScaleAdd()

    def forward(self, x):
        return self.path0(x) + self.path1(x)
''',
}
MUST_FAIL = ['test_4_2_rung5_the_gradients_of_s_and_b']
HINT = 'Task 4.2, rung 5 (the gradients of s and b)'
VISIBLE = True
