"""BroadcastTo.gradient forgets the stretched axes: it sums the new leading axes only."""
NOTEBOOK = "10_op_gradients"
CELLS = {
    "task10_1_broadcast_to_gradient": '''
class BroadcastTo(ops.BroadcastTo):
    def gradient(self, out_grad, node):
        lead = len(self.shape) - len(node.inputs[0].shape)
        return ops.summation(out_grad, tuple(range(lead))) if lead else out_grad


def broadcast_to(a, shape):
    return BroadcastTo(shape)(a)
''',
}
MUST_FAIL = ["test_broadcast_stretched_axes", "test_broadcast_gradient_by_hand"]
HINT = "sums over the new leading axes only"
