"""Module.parameters() with one branch per kind of holder, each written for what the notebook's examples put
in it: a dict's values are walked for Parameters and containers, but a sub-module held in a dict (heads =
{'box': Linear(...)}) is skipped."""
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
            elif isinstance(value, dict):
                for item in value.values():
                    if not isinstance(item, Module):
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
MUST_FAIL = ['test_parameters_random_trees']
HINT = 'Task 4.1, rung 21 (random module trees drawn per submission)'
VISIBLE = False
