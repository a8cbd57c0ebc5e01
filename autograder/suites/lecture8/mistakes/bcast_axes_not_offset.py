"""BroadcastTo.gradient numbers the stretched axes in the input's axes, not offset by the new leading axes."""
NOTEBOOK = "10_op_gradients"
CELLS = {
    "task10_1_broadcast_to_gradient": '''
class BroadcastTo(ops.BroadcastTo):
    def gradient(self, out_grad, node):
        in_shape = node.inputs[0].shape
        lead = len(self.shape) - len(in_shape)
        axes = tuple(range(lead)) + tuple(i for i, n in enumerate(in_shape) if n == 1)
        return ops.reshape(ops.summation(out_grad, axes), in_shape) if axes else out_grad


def broadcast_to(a, shape):
    return BroadcastTo(shape)(a)
''',
}
MUST_FAIL = ['test_10_1_rung3_both_3_1_to_2_3_2']
HINT = 'Task 10.1, rung 3 (both: (3, 1) to (2, 3, 2))'
