"""Trivial answer to Task 4.2: the modules create no Parameters and forward returns its input."""
NOTEBOOK = "04_module_parameters"
CELLS = {
    "task4_2_scale_add": '''
class ScaleAdd(Module):
    def __init__(self, init_s=1, init_b=0):
        super().__init__()

    def forward(self, x):
        return x


class MultiPathScaleAdd(Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        return x
''',
}
MUST_FAIL = ['test_4_2_rung1_s_and_b_are_parameters']
HINT = 'Task 4.2, rung 1 (s and b are Parameters)'
VISIBLE = True
