"""L2Loss computes (x - y)^2 in numpy and wraps it in a new Tensor: right values, but the
result is not connected to x and y."""
NOTEBOOK = "04_module_parameters"
CELLS = {
    "task4_3_l2_loss": '''
class L2Loss(Module):
    def forward(self, x, y):
        return ndl.Tensor((x.numpy() - y.numpy()) ** 2)
''',
}
MUST_FAIL = ['test_4_3_rung4_the_gradient_with_respect_to_x', 'test_l2_loss_gradient']
HINT = 'Task 4.3, rung 4 (the gradient with respect to x)'
VISIBLE = True
