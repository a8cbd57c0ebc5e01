"""Task 4.1: the student's own classes, but parameters() calls needle's Module.parameters."""
NOTEBOOK = "04_module_parameters"
CELLS = {
    "task4_1_module": '''
class Parameter(ndl.Tensor):
    """Task 4.1"""


class Module:
    """Task 4.1"""

    def parameters(self) -> list:
        return [p for p in ndl.nn.Module.parameters(self) if isinstance(p, Parameter)]

    def __call__(self, *args, **kwargs):
        return self.forward(*args, **kwargs)

    def forward(self, *args, **kwargs):
        raise NotImplementedError()
''',
}
MUST_FAIL = ["task:4.1"]
HINT = "Task 4.1 must be your own Parameter and Module"
VISIBLE = False
