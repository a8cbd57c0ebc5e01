"""FusedAddScalars.gradient returns the sum of the slots' numpy arrays, not a Tensor."""
NOTEBOOK = "06_tensor_tuple"
CELLS = {
    "task6_2_gradient": '''
def gradient(self, out_grad, node):
    return out_grad[0].numpy() + out_grad[1].numpy()


FusedAddScalars.gradient = gradient
''',
}
MUST_FAIL = ['task:6.2']
HINT = 'returned a numpy array'
VISIBLE = True
