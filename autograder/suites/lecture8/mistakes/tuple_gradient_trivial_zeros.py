"""Task 6.2 answered trivially: the gradient is zeros of a's shape (built from out_grad, so the
dtype and the graph are right). It must earn nothing."""
NOTEBOOK = "06_tensor_tuple"
CELLS = {
    "task6_2_gradient": '''
def gradient(self, out_grad, node):
    return out_grad[0] * 0.0


FusedAddScalars.gradient = gradient
''',
}
MUST_FAIL = ['task:6.2']
HINT = 'is zero'
VISIBLE = True
