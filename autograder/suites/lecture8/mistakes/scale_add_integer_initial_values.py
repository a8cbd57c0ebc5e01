"""ScaleAdd builds s and b from integer arrays, np.full(1, init_s, dtype=int) (the defaults 1 and 0 are ints),
then float32 Parameters of them: right for whole-number arguments, but ScaleAdd(1.5, -0.25) starts at 1 and 0."""
NOTEBOOK = "04_module_parameters"
CELLS = {
    "task4_2_scale_add": '''
class ScaleAdd(Module):
    def __init__(self, init_s=1, init_b=0):
        super().__init__()
        self.s = Parameter(np.full(1, init_s, dtype=int), dtype="float32")
        self.b = Parameter(np.full(1, init_b, dtype=int), dtype="float32")

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
MUST_FAIL = ['test_scale_add_and_multipath']
HINT = 'Task 4.2, rung 10 (ScaleAdd and the two-path model at values drawn per submission)'
VISIBLE = False
