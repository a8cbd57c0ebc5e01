"""Task 4.1 answered with needle's own Parameter (an alias) and a Module deriving from needle's."""
NOTEBOOK = "04_module_parameters"
CELLS = {
    "task4_1_module": '''
Parameter = ndl.nn.Parameter


class Module(ndl.nn.Module):
    """Task 4.1"""
''',
}
MUST_FAIL = ["task:4.1"]
HINT = "Task 4.1 must be your own Parameter and Module"
VISIBLE = True
