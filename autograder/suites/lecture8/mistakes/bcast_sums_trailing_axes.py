"""BroadcastTo.gradient aligns the shapes from the left: it sums the trailing axes, not the new leading ones."""
NOTEBOOK = "10_op_gradients"
CELLS = {
    "task10_1_broadcast_to_gradient": '''
class BroadcastTo(ops.BroadcastTo):
    def gradient(self, out_grad, node):
        in_shape = node.inputs[0].shape
        axes = tuple(range(len(in_shape), len(self.shape)))
        return ops.summation(out_grad, axes) if axes else out_grad


def broadcast_to(a, shape):
    return BroadcastTo(shape)(a)
''',
}
MUST_FAIL = ['test_10_1_rung1_a_new_leading_axis_2_to_3_2']
HINT = 'Task 10.1, rung 1 (a new leading axis: (2,) to (3, 2))'
