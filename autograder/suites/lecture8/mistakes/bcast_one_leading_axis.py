"""BroadcastTo.gradient sums away one new leading axis (as for a batch axis in front), not every
new axis: broadcasting (4,) to (2, 3, 4) leaves an adjoint of shape (3, 4)."""
NOTEBOOK = "10_op_gradients"
CELLS = {"task10_1_broadcast_to_gradient": '''
class BroadcastTo(ops.BroadcastTo):
    def gradient(self, out_grad, node):
        in_shape = node.inputs[0].shape
        grad = out_grad
        if len(self.shape) > len(in_shape):
            grad = ops.summation(grad, 0)  # the batch axis in front
        for axis, n in enumerate(in_shape):
            if n == 1 and grad.shape[axis] != 1:
                grad = ops.summation(grad, axis, keepdims=True)
        return grad


def broadcast_to(a, shape):
    return BroadcastTo(shape)(a)
'''}
MUST_FAIL = ['test_broadcast_gradient']
HINT = 'Task 10.1, rung 4 (shapes drawn per submission, by hand and by central differences)'
VISIBLE = False
