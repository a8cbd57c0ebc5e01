"""L2Loss takes the mean over the batch, (x - y)^2 / x.shape[0], as a training loss would: on a batch
of two it looked like the factor 1/2 and was named so (student audit, round 2)."""
NOTEBOOK = "04_module_parameters"
CELLS = {
    "task4_3_l2_loss": '''
class L2Loss(Module):
    def forward(self, x, y):
        d = x - y
        return d * d / x.shape[0]
''',
}
MUST_FAIL = ['test_l2_loss_gradient']
HINT = 'Task 4.3, rung 6 (batches of shapes drawn per submission)'
VISIBLE = False
