"""Summation.gradient handles an int axis and a tuple of axes, not axes=None (every axis): it
iterates over None (a TypeError)."""
NOTEBOOK = "10_op_gradients"
CELLS = {"task10_2_summation_gradient": '''
class Summation(ops.Summation):
    def gradient(self, out_grad, node):
        shape = node.inputs[0].shape
        axes = (self.axes,) if isinstance(self.axes, int) else self.axes
        summed = {axis % len(shape) for axis in axes}
        kept = tuple(1 if i in summed else n for i, n in enumerate(shape))
        return ops.broadcast_to(ops.reshape(out_grad, kept), shape)


def summation(a, axes=None, keepdims=False):
    return Summation(axes, keepdims)(a)
'''}
MUST_FAIL = ['test_10_2_rung4_axes_none_on_a_2_3_input']
HINT = 'Task 10.2, rung 4 (axes=None on a (2, 3) input)'
VISIBLE = True
