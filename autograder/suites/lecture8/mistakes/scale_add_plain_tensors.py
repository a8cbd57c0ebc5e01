"""ScaleAdd that stores s and b as plain needle Tensors (requires_grad=True) instead of Parameters:
its forward and gradient are right, but parameters() finds nothing (audit case w04_scaleadd_plain_tensors)."""
NOTEBOOK = "04_module_parameters"
CELLS = {
    "task4_2_scale_add": '''
class ScaleAdd(Module):
    def __init__(self, init_s=1.0, init_b=1.0):
        super().__init__()
        self.s = ndl.Tensor([init_s], dtype="float32")
        self.b = ndl.Tensor([init_b], dtype="float32")

    def forward(self, x):
        return x * self.s + self.b


class MultiPathScaleAdd(Module):
    def __init__(self):
        super().__init__()
        self.path0 = ScaleAdd()
        self.path1 = ScaleAdd()

    def forward(self, x):
        return self.path0(x) + self.path1(x)
''',
}
MUST_FAIL = ['test_4_2_rung1_s_and_b_are_parameters']
HINT = 'Task 4.2, rung 1 (s and b are Parameters)'
VISIBLE = True
