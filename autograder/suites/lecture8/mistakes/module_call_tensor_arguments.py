"""Module.__call__ turns every positional argument into a Tensor before calling forward (a convenience for
numbers): right for numbers and Tensors, but a module whose forward takes other arguments (a string, a
list, None) gets Tensors it did not ask for, or an error."""
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
                    visit(item)
            elif isinstance(value, (list, tuple)):
                for item in value:
                    visit(item)

        visit(self)
        return found

    def __call__(self, *args, **kwargs):
        args = [a if isinstance(a, ndl.Tensor) else ndl.Tensor(a) for a in args]
        return self.forward(*args, **kwargs)

    def forward(self, *args, **kwargs):
        raise NotImplementedError
''',
}
MUST_FAIL = ['test_4_1_rung20_arguments_of_any_type']
HINT = 'Task 4.1, rung 20 (arguments of any type)'
VISIBLE = False
