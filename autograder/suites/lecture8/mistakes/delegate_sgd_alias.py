"""Task 4.4 answered by aliasing needle's own Optimizer and SGD."""
NOTEBOOK = "04_module_sgd"
CELLS = {
    "task4_4_optimizer": '''
Optimizer = ndl.optim.Optimizer
''',
    "task4_4_sgd": '''
SGD = ndl.optim.SGD
''',
}
MUST_FAIL = ["task:4.4"]
HINT = "Task 4.4 must be your own Optimizer and SGD"
VISIBLE = True
