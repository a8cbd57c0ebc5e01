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
MUST_FAIL = ['test_10_3_rung3_a_stretched_size_1_batch_axis_a_1_2_2_times_b_2_2_2_a_s_adjoint']
HINT = "Task 10.3, rung 3 (a stretched size-1 batch axis: a (1, 2, 2) times b (2, 2, 2): a's adjoint)"
