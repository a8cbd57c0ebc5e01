"""L2Loss treats the target as a constant: it subtracts a new Tensor holding y's values, so the loss and its
gradient with respect to x are right, but no gradient reaches y (a model whose target is computed, as in a
siamese or distillation loss, would not learn through it)."""
NOTEBOOK = "04_module_parameters"
CELLS = {
    "task4_3_l2_loss": '''
class L2Loss(Module):
    def forward(self, x, y):
        z = x - ndl.Tensor(y.numpy(), requires_grad=False)
        return z * z
''',
}
MUST_FAIL = ['test_4_3_rung5_the_gradient_with_respect_to_y']
HINT = 'Task 4.3, rung 5 (the gradient with respect to y)'
VISIBLE = True
