"""Module.parameters() walks sorted(self.__dict__.items()): the right Parameters, in
alphabetical order of the attribute names instead of attribute order."""
NOTEBOOK = "04_module_parameters"
CELLS = {
    "task4_1_module": '''
class Parameter(ndl.Tensor):
    """parameter"""


class Module:
    def parameters(self):
        found, seen = [], set()

        def visit(v):
            if isinstance(v, Parameter):
                if id(v) not in seen:
                    seen.add(id(v))
                    found.append(v)
            elif isinstance(v, Module):
                if id(v) not in seen:
                    seen.add(id(v))
                    for _, item in sorted(v.__dict__.items()):
                        visit(item)
            elif isinstance(v, dict):
                for _, item in sorted(v.items()):
                    visit(item)
            elif isinstance(v, (list, tuple)):
                for item in v:
                    visit(item)

        visit(self)
        return found

    def __call__(self, *args, **kwargs):
        return self.forward(*args, **kwargs)
''',
}
MUST_FAIL = ['test_4_1_rung5_attribute_order', 'test_parameters_random_trees']
HINT = 'Task 4.1, rung 5 (attribute order)'
VISIBLE = True
