"""L2Loss returns the difference x - y without squaring it."""
NOTEBOOK = "04_module_parameters"
CELLS = {
    "task4_3_l2_loss": '''
class L2Loss(Module):
    def forward(self, x, y):
        return x - y
''',
}
MUST_FAIL = ["test_l2_loss_value", "test_l2_loss_gradient"]
HINT = "square it"
VISIBLE = True
