"""Module with `__call__ = forward` in its class body: __call__ is Module's own forward (which raises),
never a subclass's."""
NOTEBOOK = "04_module_parameters"
CELLS = {
    "task4_1_module": '''
class Parameter(ndl.Tensor):
    """parameter"""


class Module:
    def parameters(self):
        found, seen = [], {id(self)}

        def visit(v):
            if isinstance(v, Parameter):
                if id(v) not in seen:
                    seen.add(id(v))
                    found.append(v)
            elif isinstance(v, Module):
                if id(v) not in seen:
                    seen.add(id(v))
                    visit(v.__dict__)
            elif isinstance(v, dict):
                for item in v.values():
                    visit(item)
            elif isinstance(v, (list, tuple)):
                for item in v:
                    visit(item)

        visit(self.__dict__)
        return found

    def forward(self, *args, **kwargs):
        raise NotImplementedError("a subclass defines forward")

    __call__ = forward
''',
}
MUST_FAIL = ['test_4_1_rung17_module_x_returns_forward_x']
HINT = "Task 4.1, rung 17 (module(x) returns forward(x))"  # Tasks 4.2 and 4.3 call it through their Modules: their message says so
VISIBLE = True
