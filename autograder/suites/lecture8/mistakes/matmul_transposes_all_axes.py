"""MatMul.gradient transposes with numpy's .T, which reverses every axis, not only the last two."""
NOTEBOOK = "10_op_gradients"
CELLS = {
    "task10_3_matmul_gradient": '''
class MatMul(ops.MatMul):
    def gradient(self, out_grad, node):
        a, b = node.inputs
        bt = ndl.Tensor(b.numpy().T, dtype=out_grad.dtype, requires_grad=False)
        at = ndl.Tensor(a.numpy().T, dtype=out_grad.dtype, requires_grad=False)

        def reduce_to(grad, shape):
            lead = len(grad.shape) - len(shape)
            stretched = [lead + i for i, n in enumerate(shape[:-2]) if n == 1 and grad.shape[lead + i] != 1]
            axes = tuple(range(lead)) + tuple(stretched)
            return ops.reshape(ops.summation(grad, axes), shape) if axes else grad

        return reduce_to(out_grad @ bt, a.shape), reduce_to(at @ out_grad, b.shape)


def matmul(a, b):
    return MatMul()(a, b)
''',
}
MUST_FAIL = ['test_10_3_rung2_a_batch_2_2_2_times_one_b_2_2_b_s_adjoint']
HINT = "Task 10.3, rung 2 (a batch (2, 2, 2) times one b (2, 2): b's adjoint)"
