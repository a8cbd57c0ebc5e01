"""MatMul.gradient sums over the batch axes an operand did not have, not over its stretched size-1 batch axes."""
NOTEBOOK = "10_op_gradients"
CELLS = {
    "task10_3_matmul_gradient": '''
class MatMul(ops.MatMul):
    def gradient(self, out_grad, node):
        a, b = node.inputs

        def reduce_to(grad, shape):
            lead = len(grad.shape) - len(shape)
            return ops.summation(grad, tuple(range(lead))) if lead else grad

        return reduce_to(out_grad @ ops.transpose(b), a.shape), reduce_to(ops.transpose(a) @ out_grad, b.shape)


def matmul(a, b):
    return MatMul()(a, b)
''',
}
MUST_FAIL = ["test_matmul_batch_axes_broadcast"]
HINT = "sums over the new batch axes only"
