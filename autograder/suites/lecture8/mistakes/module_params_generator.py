"""Module.parameters() written as a generator (yield, yield from): the right Parameters in the right order,
but not a list (a second pass over it is empty, len() fails)."""
NOTEBOOK = "04_module_parameters"
CELLS = {
    "task4_1_module": '''
class Parameter(ndl.Tensor):
    """parameter"""


class Module:
    def parameters(self):
        seen = set()

        def visit(value):
            if isinstance(value, Parameter):
                if id(value) not in seen:
                    seen.add(id(value))
                    yield value
            elif isinstance(value, Module):
                for item in vars(value).values():
                    yield from visit(item)
            elif isinstance(value, dict):
                for item in value.values():
                    yield from visit(item)
            elif isinstance(value, (list, tuple)):
                for item in value:
                    yield from visit(item)

        return visit(self)

    def __call__(self, *args, **kwargs):
        return self.forward(*args, **kwargs)

    def forward(self, *args, **kwargs):
        raise NotImplementedError
''',
}
MUST_FAIL = ['test_4_1_rung3_a_list']
HINT = 'Task 4.1, rung 3 (a list)'
VISIBLE = True
