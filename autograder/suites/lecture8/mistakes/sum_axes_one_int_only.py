"""Summation.gradient handles axes=None and one int axis, not a tuple of axes: it indexes the shape
with the tuple (a TypeError)."""
NOTEBOOK = "10_op_gradients"
CELLS = {"task10_2_summation_gradient": '''
class Summation(ops.Summation):
    def gradient(self, out_grad, node):
        shape = node.inputs[0].shape
        kept = [1] * len(shape) if self.axes is None else list(shape)
        if self.axes is not None:
            kept[self.axes] = 1
        return ops.broadcast_to(ops.reshape(out_grad, tuple(kept)), shape)


def summation(a, axes=None, keepdims=False):
    return Summation(axes, keepdims)(a)
'''}
MUST_FAIL = ['test_10_2_rung3_a_tuple_of_axes_0_2_on_a_2_3_2_input']
HINT = 'Task 10.2, rung 3 (a tuple of axes: (0, 2) on a (2, 3, 2) input)'
VISIBLE = True
