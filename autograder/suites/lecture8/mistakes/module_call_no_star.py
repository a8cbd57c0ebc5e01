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
MUST_FAIL = ["test_call_runs_forward", "test_multipath_structure", "test_multipath_gradient"]
HINT = 'pass every positional and keyword argument on to forward unchanged'
VISIBLE = True
