"""Module.parameters() that looks into a container one level deep only: the Parameters and
sub-Modules directly inside a list, tuple or dict attribute are found, but a container inside a
container (a list of tuples, a dict of lists) is skipped."""
NOTEBOOK = "04_module_parameters"
CELLS = {
    "task4_1_module": '''
class Parameter(ndl.Tensor):
    """parameter"""


class Module:
    def parameters(self):
        found = []

        def add(v):
            if isinstance(v, Parameter):
                if all(v is not p for p in found):
                    found.append(v)
            elif isinstance(v, Module):
                for p in v.parameters():
                    add(p)

        for value in self.__dict__.values():
            if isinstance(value, dict):
                for item in value.values():
                    add(item)
            elif isinstance(value, (list, tuple)):
                for item in value:
                    add(item)
            else:
                add(value)
        return found

    def __call__(self, *args, **kwargs):
        return self.forward(*args, **kwargs)
''',
}
MUST_FAIL = ['test_4_1_rung13_containers_inside_containers']
HINT = 'Task 4.1, rung 13 (containers inside containers)'
VISIBLE = True
