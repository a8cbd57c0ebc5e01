"""Task 10.1 answered with needle's own BroadcastTo.gradient, through super()."""
NOTEBOOK = "10_op_gradients"
CELLS = {
    "task10_1_broadcast_to_gradient": '''
class BroadcastTo(ops.BroadcastTo):
    def gradient(self, out_grad, node):
        return super().gradient(out_grad, node)


def broadcast_to(a, shape):
    return BroadcastTo(shape)(a)
''',
}
MUST_FAIL = ['test_broadcast_gradient']
HINT = "own"
VISIBLE = True
