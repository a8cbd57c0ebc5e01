"""FusedAddScalars.gradient adds the slot adjoints in numpy and wraps the sum in a new Tensor: the
values are right, but the adjoint has no graph (no second derivative) and, as a new Tensor's
default, float32 (float64 data's gradient changes dtype). One message: the numpy route."""
NOTEBOOK = "06_tensor_tuple"
CELLS = {
    "task6_2_gradient": '''
def gradient(self, out_grad, node):
    g0, g1 = out_grad[0], out_grad[1]
    return ndl.Tensor(g0.numpy() + g1.numpy())


FusedAddScalars.gradient = gradient
''',
}
MUST_FAIL = ['test_6_2_rung5_the_gradient_is_differentiable']
HINT = 'Task 6.2, rung 5 (the gradient is differentiable)'
VISIBLE = True
