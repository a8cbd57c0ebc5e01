"""Task 2.1 answered with needle's .data property (whose getter is Tensor.detach), as a lambda."""
NOTEBOOK = "02_detach"
CELLS = {
    "task2_1_detach": '''
detach = lambda t: t.data  # noqa: E731
''',
}
MUST_FAIL = ["task:2.1"]
HINT = "Task 2.1 must be your own"
VISIBLE = True
