"""Summation.gradient turns a negative int axis into its positive number, but not the negative
entries of a tuple of axes: (0, -1) leaves the last axis unmatched."""
NOTEBOOK = "10_op_gradients"
CELLS = {"task10_2_summation_gradient": '''
class Summation(ops.Summation):
    def gradient(self, out_grad, node):
        shape = node.inputs[0].shape
        if self.axes is None:
            axes = range(len(shape))
        elif isinstance(self.axes, int):
            axes = [self.axes % len(shape)]
        else:
            axes = self.axes
        kept = tuple(1 if i in axes else n for i, n in enumerate(shape))
        return ops.broadcast_to(ops.reshape(out_grad, kept), shape)


def summation(a, axes=None, keepdims=False):
    return Summation(axes, keepdims)(a)
'''}
MUST_FAIL = ['test_summation_gradient']
HINT = 'Task 10.2, rung 7 (every form of axes and keepdims on inputs drawn per submission, by hand and by central differences)'
VISIBLE = False
