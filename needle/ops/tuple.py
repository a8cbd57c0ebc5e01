"""Ops with several outputs (TensorTuple) and indexing into them."""
import numpy as np

from ..autograd import Tensor, TensorOp, TensorTuple, TensorTupleOp, as_scalar
from ._checks import scalar_like


class MakeTensorTuple(TensorTupleOp):
    """(a0, a1, ...) as one TensorTuple;  input i's adjoint is the adjoint's slot i."""

    def compute(self, *args):
        return tuple(args)

    def gradient(self, out_grad, node):
        return tuple(out_grad[i] for i in range(len(node.inputs)))


def make_tuple(*args):
    for i, arg in enumerate(args):
        if not isinstance(arg, Tensor):
            raise TypeError(f"make_tuple takes Tensors; argument {i} is {type(arg).__name__}")
    return MakeTensorTuple()(*args)


class TupleGetItem(TensorOp):
    """t[index];  the adjoint of t is out_grad in slot ``index`` and zeros elsewhere."""

    def __init__(self, index: int):
        self.index = index

    def compute(self, a):
        return a[self.index]

    def gradient(self, out_grad, node):
        values = node.inputs[0].realize_cached_data()
        slots = [
            out_grad if i == self.index else Tensor.make_const(np.zeros_like(v))
            for i, v in enumerate(values)
        ]
        return MakeTensorTuple()(*slots)


def tuple_get_item(value, index: int):
    if not isinstance(value, TensorTuple):
        raise TypeError(f"tuple_get_item takes a TensorTuple, got {type(value).__name__}")
    return value[index]


class FusedAddScalars(TensorTupleOp):
    """(a + c0, a + c1) in one op;  d/da = adjoint[0] + adjoint[1]."""

    def __init__(self, c0: float, c1: float):
        self.c0 = as_scalar(c0, "fused_add_scalars")
        self.c1 = as_scalar(c1, "fused_add_scalars")

    def compute(self, a):
        return a + scalar_like("fused_add_scalars", a, self.c0), a + scalar_like("fused_add_scalars", a, self.c1)

    def gradient(self, out_grad, node):
        return out_grad[0] + out_grad[1]


def fused_add_scalars(a, c0, c1):
    return FusedAddScalars(c0, c1)(a)
