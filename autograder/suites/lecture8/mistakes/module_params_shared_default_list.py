"""Module.parameters(self, found=[]) with a default list: Python makes the default once, when the
function is defined, so every call appends to the same list and a module's answer holds the
Parameters of every module walked before."""
NOTEBOOK = "04_module_parameters"
CELLS = {
    "task4_1_module": '''
class Parameter(ndl.Tensor):
    """parameter"""


class Module:
    def parameters(self, found=[]):
        def visit(value):
            if isinstance(value, Parameter):
                if not any(value is p for p in found):
                    found.append(value)
            elif isinstance(value, Module):
                value.parameters(found)
            elif isinstance(value, dict):
                for item in value.values():
                    visit(item)
            elif isinstance(value, (list, tuple)):
                for item in value:
                    visit(item)

        for value in self.__dict__.values():
            visit(value)
        return found

    def __call__(self, *args, **kwargs):
        return self.forward(*args, **kwargs)
''',
}
MUST_FAIL = ['test_4_1_rung2_a_second_module']
HINT = 'Task 4.1, rung 2 (a second module)'
VISIBLE = True
