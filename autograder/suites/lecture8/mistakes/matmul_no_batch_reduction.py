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
MUST_FAIL = ["test_matmul_one_operand_batched", "test_matmul_batch_axes_broadcast"]
HINT = "leaves the batch axes in"
