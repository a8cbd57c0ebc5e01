"""FusedAddScalars.gradient starts its sum from zeros built as float64 (np.zeros wrapped with
dtype="float64"): right for float64 data, a dtype error (needle does not promote) for float32."""
NOTEBOOK = "06_tensor_tuple"
CELLS = {
    "task6_2_gradient": '''
def gradient(self, out_grad, node):
    total = ndl.Tensor(np.zeros(node.inputs[0].shape), dtype="float64", requires_grad=False)
    for g in out_grad.tuple():
        total = total + g
    return total


FusedAddScalars.gradient = gradient
''',
}
MUST_FAIL = ['test_6_2_rung4_float32_stays_float32']
HINT = 'Task 6.2, rung 4 (float32 stays float32)'
VISIBLE = True
