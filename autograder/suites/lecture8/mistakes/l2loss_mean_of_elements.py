"""L2Loss divides each element's loss by the number of elements, (x - y)^2 / x.size, the habit of a
mean-squared-error loss: right for one element, a third of the loss for three."""
NOTEBOOK = "04_module_parameters"
CELLS = {
    "task4_3_l2_loss": '''
class L2Loss(Module):
    def forward(self, x, y):
        z = x - y
        n = 1
        for d in x.shape:
            n *= d
        return (z * z) / n
''',
}
MUST_FAIL = ['test_4_3_rung3_element_wise_with_the_shape_of_x']
HINT = 'Task 4.3, rung 3 (element-wise, with the shape of x)'
VISIBLE = True
