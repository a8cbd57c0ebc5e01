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
MUST_FAIL = ["test_summation_gradient_by_hand", "test_summation_axes_forms"]
HINT = "new axes go in front"
VISIBLE = True
