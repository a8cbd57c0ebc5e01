"""Task 4.3: the student's L2Loss class borrows needle's L2Loss.forward as its method."""
NOTEBOOK = "04_module_parameters"
CELLS = {
    "task4_3_l2_loss": '''
class L2Loss(Module):
    """Task 4.3"""

    forward = ndl.nn.L2Loss.forward
''',
}
MUST_FAIL = ["task:4.3"]
HINT = "Task 4.3 must be your own L2Loss"
VISIBLE = True
