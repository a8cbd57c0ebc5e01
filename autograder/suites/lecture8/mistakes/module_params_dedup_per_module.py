"""Module.parameters() that lists each Parameter once within one module, but collects a sub-module's
Parameters by calling its parameters() and appending them all: a sub-module stored twice (or a Parameter
shared with a sub-module) is listed twice."""
NOTEBOOK = "04_module_parameters"
CELLS = {
    "task4_1_module": '''
class Parameter(ndl.Tensor):
    """parameter"""


class Module:
    def parameters(self):
        found = []

        def visit(value):
            if isinstance(value, Parameter):
                if all(value is not p for p in found):
                    found.append(value)
            elif isinstance(value, Module):
                found.extend(value.parameters())
            elif isinstance(value, dict):
                for item in value.values():
                    visit(item)
            elif isinstance(value, (list, tuple)):
                for item in value:
                    visit(item)

        for value in vars(self).values():
            visit(value)
        return found

    def __call__(self, *args, **kwargs):
        return self.forward(*args, **kwargs)

    def forward(self, *args, **kwargs):
        raise NotImplementedError
''',
}
MUST_FAIL = ['test_4_1_rung15_a_sub_module_stored_twice']
HINT = 'Task 4.1, rung 15 (a sub-module stored twice)'
VISIBLE = True
