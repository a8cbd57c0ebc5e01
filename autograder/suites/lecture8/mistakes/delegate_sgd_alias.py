"""Task 5.1 answered by aliasing needle's own Optimizer and SGD."""
NOTEBOOK = "05_optimizer_training"
CELLS = {
    "task5_1_optimizer": '''
Optimizer = ndl.optim.Optimizer
''',
    "task5_1_sgd": '''
SGD = ndl.optim.SGD
''',
}
MUST_FAIL = ["task:5.1"]
HINT = "Task 5.1 must be your own Optimizer and SGD"
VISIBLE = True
