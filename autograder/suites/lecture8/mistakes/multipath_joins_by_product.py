"""MultiPathScaleAdd joins its paths by a product, path0(x) * path1(x): at the lecture's hand
check (default paths, x = 2) it gives the same h = 4 as the right join, but each path's adjoint
is scaled by the other path's output (the contract asks for dh/df0 = dh/df1 = 1)."""
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
        return self.path0(x) * self.path1(x)
''',
}
MUST_FAIL = ['test_4_2_rung8_the_value_with_the_default_paths']
HINT = 'Task 4.2, rung 8 (the value with the default paths)'
VISIBLE = True
