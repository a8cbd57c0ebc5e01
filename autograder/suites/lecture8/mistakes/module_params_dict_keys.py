"""Module.parameters() that walks a dict with a for loop over the dict itself: that gives its keys
(strings), so the Parameters held in dicts, and in sub-modules walked through their __dict__,
are never reached."""
NOTEBOOK = "04_module_parameters"
CELLS = {
    "task4_1_module": '''
class Parameter(ndl.Tensor):
    """parameter"""


class Module:
    def parameters(self):
        found, seen = [], {id(self)}

        def visit(value):
            if isinstance(value, Parameter):
                if id(value) not in seen:
                    seen.add(id(value))
                    found.append(value)
            elif isinstance(value, Module):
                if id(value) not in seen:
                    seen.add(id(value))
                    visit(value.__dict__)
            elif isinstance(value, (list, tuple, dict)):
                for item in value:
                    visit(item)

        for value in self.__dict__.values():
            visit(value)
        return found

    def __call__(self, *args, **kwargs):
        return self.forward(*args, **kwargs)
''',
}
MUST_FAIL = ['test_4_1_rung8_a_sub_module']
HINT = 'Task 4.1, rung 8 (a sub-module)'
VISIBLE = True
