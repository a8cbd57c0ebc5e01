"""L2Loss written as (x - y) * (y - x): the square of the difference with its sign flipped, a loss
that falls as the prediction moves away from the target."""
NOTEBOOK = "04_module_parameters"
CELLS = {
    "task4_3_l2_loss": '''
class L2Loss(Module):
    def forward(self, x, y):
        return (x - y) * (y - x)
''',
}
MUST_FAIL = ['test_4_3_rung2_one_element', 'test_l2_loss_gradient']
HINT = 'Task 4.3, rung 2 (one element)'
VISIBLE = True
