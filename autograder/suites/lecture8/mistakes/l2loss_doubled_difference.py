"""L2Loss that doubles the difference instead of squaring it, (x - y) * 2 (the derivative
written in place of the loss)."""
NOTEBOOK = "04_module_parameters"
CELLS = {
    "task4_3_l2_loss": '''
class L2Loss(Module):
    def forward(self, x, y):
        return (x - y) * 2
''',
}
MUST_FAIL = ['test_4_3_rung2_one_element', 'test_l2_loss_gradient']
HINT = 'Task 4.3, rung 2 (one element)'
NOT_HINTS = ["half of"]
VISIBLE = True
