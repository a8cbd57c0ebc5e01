"""Module.parameters() walks right, but keeps its list on the module after the first call and returns it
again (to save the walk at every step): a Parameter set or replaced after that first call is never seen."""
NOTEBOOK = "04_module_parameters"
CELLS = {
    "task4_1_module": '''
class Parameter(ndl.Tensor):
    """parameter"""


class Module:
    def parameters(self):
        if '_cached' in vars(self):
            return self._cached
        found, seen = [], set()

        def visit(value):
            if isinstance(value, Parameter):
                if id(value) not in seen:
                    seen.add(id(value))
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
        object.__setattr__(self, '_cached', found)
        return found

    def __call__(self, *args, **kwargs):
        return self.forward(*args, **kwargs)

    def forward(self, *args, **kwargs):
        raise NotImplementedError
''',
}
MUST_FAIL = ['test_4_1_rung19_attributes_set_after_a_first_call']
HINT = 'Task 4.1, rung 19 (attributes set after a first call)'
VISIBLE = False
