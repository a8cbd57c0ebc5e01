"""Matrix product."""
import numpy as np

from ..autograd import TensorOp
from .shape import reshape, summation, transpose


def _sum_to_shape(grad, shape):
    """Sum the batch axes a (batched) matmul broadcast over, back to ``shape``."""
    if grad.shape == shape:
        return grad
    lead = len(grad.shape) - len(shape)
    axes = tuple(range(lead)) + tuple(
        lead + i for i, n in enumerate(shape[:-2]) if n == 1 and grad.shape[lead + i] != 1
    )
    return reshape(summation(grad, axes), shape)


class MatMul(TensorOp):
    """a @ b (2-D, or batched over leading axes);  d/da = out_grad @ b^T,
    d/db = a^T @ out_grad."""

    def compute(self, a, b):
        if a.ndim < 2 or b.ndim < 2:
            raise ValueError(
                f"matmul needs tensors with at least 2 dimensions, got shapes {a.shape} and "
                f"{b.shape} (reshape a vector to (1, n) or (n, 1))"
            )
        if a.dtype != b.dtype:
            raise ValueError(f"matmul: dtypes {a.dtype} and {b.dtype} differ; convert one explicitly")
        try:
            return np.matmul(a, b)
        except ValueError:  # checked after the fact: a check before every product costs more
            if a.shape[-1] != b.shape[-2]:
                raise ValueError(
                    f"matmul: shapes {a.shape} and {b.shape} are not aligned: "
                    f"{a.shape[-1]} (last axis of a) != {b.shape[-2]} (second-to-last of b)"
                ) from None
            raise

    def gradient(self, out_grad, node):
        a, b = node.inputs
        # Skip an adjoint nobody needs (the data batch): a third of an MLP's backward work.
        grad_a = _sum_to_shape(out_grad @ transpose(b), a.shape) if a.requires_grad else None
        grad_b = _sum_to_shape(transpose(a) @ out_grad, b.shape) if b.requires_grad else None
        return grad_a, grad_b


def matmul(a, b):
    return MatMul()(a, b)
