"""Module.__call__(self, x) takes exactly one argument: a loss module(h, y) or a keyword
argument fails."""
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

    def __call__(self, x):
        return self.forward(x)
''',
}
MUST_FAIL = ['test_4_1_rung18_every_argument_passed_on']
HINT = "Task 4.1, rung 18 (every argument passed on)"  # Tasks 4.2 and 4.3 call it through their Modules: their message says so
VISIBLE = True
