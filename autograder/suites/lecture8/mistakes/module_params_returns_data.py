"""Module.parameters() lists each Parameter's .data (a detached copy holding the same values) instead of the
Parameter object itself: an optimizer given that list updates copies, and the model never changes."""
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
                if id(value) not in seen:
                    seen.add(id(value))
                    found.append(value.data)
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
MUST_FAIL = ['test_4_1_rung4_the_module_s_own_parameter_objects']
HINT = "Task 4.1, rung 4 (the module's own Parameter objects)"
VISIBLE = True
