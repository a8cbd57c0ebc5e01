"""MatMul.gradient applies the 2-D formulas and stops: a shared operand keeps the batch axes in its adjoint."""
NOTEBOOK = "10_op_gradients"
CELLS = {
    "task10_3_matmul_gradient": '''
class MatMul(ops.MatMul):
    def gradient(self, out_grad, node):
        a, b = node.inputs
        return out_grad @ ops.transpose(b), ops.transpose(a) @ out_grad


def matmul(a, b):
    return MatMul()(a, b)
''',
}
MUST_FAIL = ['test_10_3_rung2_a_batch_2_2_2_times_one_b_2_2_b_s_adjoint']
HINT = "Task 10.3, rung 2 (a batch (2, 2, 2) times one b (2, 2): b's adjoint)"
