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
HINT = "Task 4.1, rung 1 (the Parameters in attributes)"  # Tasks 4.2 and 4.3 call it through their Modules: their message says so
VISIBLE = True
