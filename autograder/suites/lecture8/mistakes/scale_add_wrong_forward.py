"""ScaleAdd.forward computes x * s + b * s: right at the defaults (s = 1), wrong elsewhere."""
NOTEBOOK = "04_module_parameters"
CELLS = {
    "task4_2_scale_add": '''
class ScaleAdd(Module):
    def __init__(self, init_s=1, init_b=0):
        super().__init__()
        self.s = Parameter([init_s], dtype="float32")
        self.b = Parameter([init_b], dtype="float32")

    def forward(self, x):
        return x * self.s + self.b * self.s


class MultiPathScaleAdd(Module):
    def __init__(self):
        super().__init__()
        self.path0 = ScaleAdd()
        self.path1 = ScaleAdd()

    def forward(self, x):
        return self.path0(x) + self.path1(x)
''',
}
MUST_FAIL = ['test_4_2_rung4_the_value_at_one_point']
HINT = 'Task 4.2, rung 4 (the value at one point)'
VISIBLE = True
