"""L2Loss with the factor 1/2 that many textbooks put in front, 0.5 * (x - y) ** 2: half the
lecture's loss (once told the message meant for a doubled difference)."""
NOTEBOOK = "04_module_parameters"
CELLS = {
    "task4_3_l2_loss": '''
class L2Loss(Module):
    def forward(self, x, y):
        return 0.5 * (x - y) ** 2
''',
}
MUST_FAIL = ['test_4_3_rung2_one_element', 'test_l2_loss_gradient']
HINT = 'Task 4.3, rung 2 (one element)'
NOT_HINTS = ["2 (x - y), twice"]
VISIBLE = True
