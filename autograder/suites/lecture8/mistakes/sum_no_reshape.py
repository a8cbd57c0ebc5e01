"""Summation.gradient broadcasts out_grad straight back, without putting the summed axes back as size 1."""
NOTEBOOK = "10_op_gradients"
CELLS = {
    "task10_2_summation_gradient": '''
class Summation(ops.Summation):
    def gradient(self, out_grad, node):
        return ops.broadcast_to(out_grad, node.inputs[0].shape)


def summation(a, axes=None, keepdims=False):
    return Summation(axes, keepdims)(a)
''',
}
MUST_FAIL = ['test_10_2_rung2_axes_1_on_a_2_3_input']
HINT = 'Task 10.2, rung 2 (axes=1 on a (2, 3) input)'
VISIBLE = True
