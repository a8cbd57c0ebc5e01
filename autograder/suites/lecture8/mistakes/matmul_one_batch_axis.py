"""MatMul.gradient sums away one batch axis in front of an operand that had fewer axes (as for one
batch of matrices), not every missing batch axis: (2, 2, 3, 4) @ (4, 2) gives b an adjoint of
shape (2, 4, 2)."""
NOTEBOOK = "10_op_gradients"
CELLS = {"task10_3_matmul_gradient": '''
class MatMul(ops.MatMul):
    def gradient(self, out_grad, node):
        a, b = node.inputs

        def reduce_to(grad, shape):
            if len(grad.shape) > len(shape):
                grad = ops.summation(grad, 0)  # the batch axis
            for axis, n in enumerate(shape[:-2]):
                if n == 1 and grad.shape[axis] != 1:
                    grad = ops.summation(grad, axis, keepdims=True)
            return grad

        return reduce_to(out_grad @ ops.transpose(b), a.shape), reduce_to(ops.transpose(a) @ out_grad, b.shape)


def matmul(a, b):
    return MatMul()(a, b)
'''}
MUST_FAIL = ['test_matmul_gradient']
HINT = 'Task 10.3, rung 4 (batch shapes drawn per submission, by hand and by central differences)'
VISIBLE = False
