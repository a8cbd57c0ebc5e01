"""Summation.gradient returns out_grad as it is when keepdims is True, as if out_grad then had the
input's shape already: the summed axes stay of size 1, nothing is copied along them."""
NOTEBOOK = "10_op_gradients"
CELLS = {"task10_2_summation_gradient": '''
class Summation(ops.Summation):
    def gradient(self, out_grad, node):
        shape = node.inputs[0].shape
        if self.keepdims:
            return out_grad  # kept dims: already the input's axes
        axes = range(len(shape)) if self.axes is None else np.atleast_1d(self.axes)
        summed = {int(axis) % len(shape) for axis in axes}
        kept = tuple(1 if i in summed else n for i, n in enumerate(shape))
        return ops.broadcast_to(ops.reshape(out_grad, kept), shape)


def summation(a, axes=None, keepdims=False):
    return Summation(axes, keepdims)(a)
'''}
MUST_FAIL = ['test_10_2_rung5_keepdims_true_axes_1_on_a_2_3_input']
HINT = 'Task 10.2, rung 5 (keepdims=True: axes=1 on a (2, 3) input)'
VISIBLE = True
