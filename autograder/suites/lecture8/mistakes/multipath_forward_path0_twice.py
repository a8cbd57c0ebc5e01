"""MultiPathScaleAdd.forward returns path0(x) + path0(x): right at the defaults, but path1
never gets a gradient and path0 gets both contributions."""
NOTEBOOK = "04_module_parameters"
CELLS = {
    "task4_2_scale_add": '''
class ScaleAdd(Module):
    def __init__(self, init_s=1, init_b=0):
        super().__init__()
        self.s = Parameter([init_s], dtype="float32")
        self.b = Parameter([init_b], dtype="float32")

    def forward(self, x):
        return x * self.s + self.b


class MultiPathScaleAdd(Module):
    def __init__(self):
        super().__init__()
        self.path0 = ScaleAdd()
        self.path1 = ScaleAdd()

    def forward(self, x):
        return self.path0(x) + self.path0(x)
''',
}
MUST_FAIL = ['test_4_2_rung9_each_path_s_gradients']
HINT = "Task 4.2, rung 9 (each path's gradients)"
VISIBLE = True
