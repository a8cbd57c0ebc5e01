"""MultiPathScaleAdd keeps its two ScaleAdd modules in a list, self.paths = [ScaleAdd(), ScaleAdd()]: the value
and the gradients are right, but the contract's path0 and path1 are not there."""
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
        self.paths = [ScaleAdd(), ScaleAdd()]

    def forward(self, x):
        return self.paths[0](x) + self.paths[1](x)
''',
}
MUST_FAIL = ['test_4_2_rung6_two_scaleadd_paths']
HINT = 'Task 4.2, rung 6 (two ScaleAdd paths)'
VISIBLE = True
