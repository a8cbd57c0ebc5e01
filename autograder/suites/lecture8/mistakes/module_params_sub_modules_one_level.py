"""Module.parameters() enters a sub-module's attributes one level only (its Parameters, lists, tuples and
dicts), never a sub-module of a sub-module: a block inside a model loses its layers' Parameters."""
NOTEBOOK = "04_module_parameters"
CELLS = {
    "task4_1_module": '''
class Parameter(ndl.Tensor):
    """parameter"""


class Module:
    def parameters(self):
        found, seen = [], set()

        def visit(value, depth):
            if isinstance(value, Parameter):
                if id(value) not in seen:
                    seen.add(id(value))
                    found.append(value)
            elif isinstance(value, Module):
                if depth < 2:
                    for item in vars(value).values():
                        visit(item, depth + 1)
            elif isinstance(value, dict):
                for item in value.values():
                    visit(item, depth)
            elif isinstance(value, (list, tuple)):
                for item in value:
                    visit(item, depth)

        visit(self, 0)
        return found

    def __call__(self, *args, **kwargs):
        return self.forward(*args, **kwargs)

    def forward(self, *args, **kwargs):
        raise NotImplementedError
''',
}
MUST_FAIL = ['test_4_1_rung9_a_sub_module_of_a_sub_module']
HINT = 'Task 4.1, rung 9 (a sub-module of a sub-module)'
VISIBLE = True
