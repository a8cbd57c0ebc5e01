"""Summation.gradient divides by the number of summed elements (the gradient of a mean)."""
NOTEBOOK = "10_op_gradients"
CELLS = {
    "task10_2_summation_gradient": '''
class Summation(ops.Summation):
    def gradient(self, out_grad, node):
        shape = node.inputs[0].shape
        axes = range(len(shape)) if self.axes is None else [self.axes] if isinstance(self.axes, int) else self.axes
        axes = {a % len(shape) for a in axes}
        kept = tuple(1 if i in axes else n for i, n in enumerate(shape))
        count = int(np.prod([shape[i] for i in axes]))
        return ops.broadcast_to(ops.reshape(out_grad, kept), shape) / count


def summation(a, axes=None, keepdims=False):
    return Summation(axes, keepdims)(a)
''',
}
MUST_FAIL = ['test_10_2_rung1_axes_0_on_a_2_3_input']
HINT = 'Task 10.2, rung 1 (axes=0 on a (2, 3) input)'
