"""Module.parameters() walks every container but lists a Parameter each time it is reached
(the lecture's first _get_params has no deduplication): tied weights are updated twice."""
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
                found.append(v)
            elif isinstance(v, Module):
                visit(v.__dict__)
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
MUST_FAIL = ['test_4_1_rung14_a_parameter_under_two_names', 'test_parameters_random_trees']
HINT = 'Task 4.1, rung 14 (a Parameter under two names)'
VISIBLE = True
