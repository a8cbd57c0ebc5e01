"""Module.parameters() walks a dict as it walks a list and a tuple, with a for loop over it: that gives the
dict's keys (strings, ignored), so the Parameters held in a dict are never found (sub-modules are walked
through vars(m).values(), which is right)."""
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
                    found.append(value)
            elif isinstance(value, Module):
                for item in vars(value).values():
                    visit(item)
            elif isinstance(value, (list, tuple, dict)):
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
MUST_FAIL = ['test_4_1_rung12_a_dict']
HINT = 'Task 4.1, rung 12 (a dict)'
VISIBLE = True
