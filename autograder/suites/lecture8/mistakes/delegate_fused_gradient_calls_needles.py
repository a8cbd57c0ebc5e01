"""Task 5.2: the gradient calls needle's FusedAddScalars.gradient with the student's op."""
NOTEBOOK = "05_tensor_tuple"
CELLS = {
    "task5_2_gradient": '''
def gradient(self, out_grad, node):
    return ndl.ops.FusedAddScalars.gradient(self, out_grad, node)


FusedAddScalars.gradient = gradient
''',
}
MUST_FAIL = ["task:5.2"]
HINT = "Task 5.2 must be your own FusedAddScalars.gradient"
VISIBLE = True
