"""Module.parameters() that keeps each Parameter once by comparing values (np.array_equal), not identity:
two different Parameters that start equal (two biases at zero) are listed as one."""
NOTEBOOK = "04_module_parameters"
CELLS = {
    "task4_1_module": '''
class Parameter(ndl.Tensor):
    """parameter"""


class Module:
    def parameters(self):
        found, seen = [], set()

        def visit(value):
            if isinstance(value, Parameter):
                if not any(np.array_equal(value.numpy(), p.numpy()) for p in found):
                    found.append(value)
            elif isinstance(value, Module):
                for item in vars(value).values():
                    visit(item)
            elif isinstance(value, dict):
                for item in value.values():
                    visit(item)
            elif isinstance(value, (list, tuple)):
                for item in value:
                    visit(item)

        visit(self)
        return found

    def __call__(self, *args, **kwargs):
        return self.forward(*args, **kwargs)

    def forward(self, *args, **kwargs):
        raise NotImplementedError
''',
}
MUST_FAIL = ['test_4_1_rung16_two_parameters_of_equal_value']
HINT = 'Task 4.1, rung 16 (two Parameters of equal value)'
VISIBLE = True
