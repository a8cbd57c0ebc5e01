"""ScaleAdd with float64 Parameters (dtype="float64"): the float32 input cannot be multiplied
by them (needle does not promote dtypes), so every forward raises (once two messages: the
dtype, and the raise)."""
NOTEBOOK = "04_module_parameters"
CELLS = {
    "task4_2_scale_add": '''
class ScaleAdd(Module):
    def __init__(self, init_s=1, init_b=0):
        super().__init__()
        self.s = Parameter([init_s], dtype="float64")
        self.b = Parameter([init_b], dtype="float64")

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
MUST_FAIL = ['test_4_2_rung3_float32']
HINT = 'Task 4.2, rung 3 (float32)'
VISIBLE = True
