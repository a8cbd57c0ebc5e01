"""MatMul.gradient multiplies the transposed factor on the wrong side: b^T @ out_grad for a's adjoint."""
NOTEBOOK = "10_op_gradients"
CELLS = {
    "task10_3_matmul_gradient": '''
class MatMul(ops.MatMul):
    def gradient(self, out_grad, node):
        a, b = node.inputs
        return ops.transpose(out_grad) @ b, a @ ops.transpose(out_grad)


def matmul(a, b):
    return MatMul()(a, b)
''',
}
MUST_FAIL = ['test_10_3_rung1_2_d_out_grad_picks_c_0_0']
HINT = 'Task 10.3, rung 1 (2-D: out_grad picks c[0, 0])'
