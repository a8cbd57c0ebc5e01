"""Module.parameters() walks the module's own attributes and its containers but never enters
a sub-module: MultiPathScaleAdd would have no parameters at all."""
NOTEBOOK = "04_module_parameters"
CELLS = {
    "task4_1_module": '''
class Parameter(ndl.Tensor):
    """parameter"""


class Module:
    def parameters(self):
        found = []

        def visit(v):
            if isinstance(v, Parameter):
                if all(v is not p for p in found):
                    found.append(v)
            elif isinstance(v, dict):
                for item in v.values():
                    visit(item)
            elif isinstance(v, (list, tuple)):
                for item in v:
                    visit(item)

        visit(self.__dict__)
        return found

    def __call__(self, *args, **kwargs):
        return self.forward(*args, **kwargs)
''',
}
MUST_FAIL = ['test_4_1_rung8_a_sub_module', 'test_parameters_random_trees']
HINT = 'Task 4.1, rung 8 (a sub-module)'
VISIBLE = True
