"""Task 10.2 answered with needle's kept_shape (notebook 03's tool), the shape bookkeeping the task asks for."""
NOTEBOOK = "10_op_gradients"
CELLS = {
    "task10_2_summation_gradient": '''
from needle.ops.shape import kept_shape


class Summation(ops.Summation):
    def gradient(self, out_grad, node):
        shape = node.inputs[0].shape
        return ops.broadcast_to(ops.reshape(out_grad, kept_shape(shape, self.axes)), shape)


def summation(a, axes=None, keepdims=False):
    return Summation(axes, keepdims)(a)
''',
}
MUST_FAIL = ['test_summation_gradient']
HINT = "own"
VISIBLE = True
