"""Trivial answer to Task 4.3: L2Loss.forward returns the prediction x unchanged."""
NOTEBOOK = "04_module_parameters"
CELLS = {
    "task4_3_l2_loss": '''
class L2Loss(Module):
    def forward(self, x, y):
        return x
''',
}
MUST_FAIL = ['test_4_3_rung1_zero_where_x_y']
HINT = 'Task 4.3, rung 1 (zero where x = y)'
VISIBLE = True
