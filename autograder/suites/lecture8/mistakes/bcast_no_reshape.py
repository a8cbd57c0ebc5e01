"""BroadcastTo.gradient sums the right axes but never reshapes: a stretched size-1 axis is dropped."""
NOTEBOOK = "10_op_gradients"
CELLS = {
    "task10_1_broadcast_to_gradient": '''
class BroadcastTo(ops.BroadcastTo):
    def gradient(self, out_grad, node):
        in_shape = node.inputs[0].shape
        lead = len(self.shape) - len(in_shape)
        axes = tuple(range(lead)) + tuple(lead + i for i, n in enumerate(in_shape) if n == 1 and self.shape[lead + i] != 1)
        return ops.summation(out_grad, axes) if axes else out_grad


def broadcast_to(a, shape):
    return BroadcastTo(shape)(a)
''',
}
MUST_FAIL = ['test_10_1_rung2_a_stretched_size_1_axis_3_1_to_3_4']
HINT = 'Task 10.1, rung 2 (a stretched size-1 axis: (3, 1) to (3, 4))'
