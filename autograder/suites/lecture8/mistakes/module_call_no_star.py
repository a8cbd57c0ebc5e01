"""Module.__call__ passes the tuple and the dict on, forward(args, kwargs), instead of unpacking them."""
NOTEBOOK = "04_module_parameters"
CELLS = {
    "task4_1_module": '''
class Parameter(ndl.Tensor):
    """Task 4.1"""


class Module:
    def parameters(self):
        found, seen = [], {id(self)}
        def visit(v):
            if isinstance(v, Parameter):
                if id(v) not in seen:
                    seen.add(id(v)); found.append(v)
            elif isinstance(v, Module):
                if id(v) not in seen:
                    seen.add(id(v)); visit(v.__dict__)
            elif isinstance(v, dict):
                for i in v.values():
                    visit(i)
            elif isinstance(v, (list, tuple)):
                for i in v:
                    visit(i)
        visit(self.__dict__)
        return found

    def __call__(self, *args, **kwargs):
        return self.forward(args, kwargs)

    def forward(self, *args, **kwargs):
        raise NotImplementedError()
''',
}
MUST_FAIL = ['test_4_1_rung17_module_x_returns_forward_x']
HINT = "Task 4.1, rung 17 (module(x) returns forward(x))"  # Tasks 4.2 and 4.3 call it through their Modules: their message says so
VISIBLE = True
