"""Summation.gradient compares the axes as given with the input's axis numbers: a negative axis matches none."""
NOTEBOOK = "10_op_gradients"
CELLS = {
    "task10_2_summation_gradient": '''
class Summation(ops.Summation):
    def gradient(self, out_grad, node):
        shape = node.inputs[0].shape
        axes = range(len(shape)) if self.axes is None else [self.axes] if isinstance(self.axes, int) else self.axes
        kept = tuple(1 if i in axes else n for i, n in enumerate(shape))
        return ops.broadcast_to(ops.reshape(out_grad, kept), shape)


def summation(a, axes=None, keepdims=False):
    return Summation(axes, keepdims)(a)
''',
}
MUST_FAIL = ['test_10_2_rung6_a_negative_axis_1_on_a_2_3_input']
HINT = 'Task 10.2, rung 6 (a negative axis: -1 on a (2, 3) input)'
