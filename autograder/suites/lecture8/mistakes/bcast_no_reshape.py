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
MUST_FAIL = ["test_broadcast_gradient_by_hand", "test_broadcast_stretched_axes", "test_broadcast_gradient_any_shape",
             "test_broadcast_in_a_composed_graph"]
HINT = "drops the stretched size-1 axes"
