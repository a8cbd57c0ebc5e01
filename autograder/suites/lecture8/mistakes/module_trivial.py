"""Trivial answer to Task 4.1: parameters() returns an empty list and __call__ returns None
without running forward."""
NOTEBOOK = "04_module_parameters"
CELLS = {
    "task4_1_module": '''
class Parameter(ndl.Tensor):
    """Task 4.1"""


class Module:
    def parameters(self) -> list:
        return []

    def __call__(self, *args, **kwargs):
        return None

    def forward(self, *args, **kwargs):
        raise NotImplementedError()
''',
}
MUST_FAIL = ['test_4_1_rung1_the_parameters_in_attributes']
HINT = 'your code gave'  # the words of its first failing rung in each task it breaks (Task 4.1, rung 1, the Parameters in attributes; the tasks whose modules are called through it)
VISIBLE = True
