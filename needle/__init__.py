"""needle: a small autograd engine and neural-network library, built for teaching.

>>> import needle as ndl
>>> x = ndl.Tensor([1.0, 2.0])
>>> (x * x).sum().backward(); x.grad
needle.Tensor([2. 4.])
"""
from . import autograd, init, nn, ops, optim
from . import data
from .autograd import (
    Op, Tensor, TensorOp, TensorTuple, TensorTupleOp, Value, is_grad_enabled, lazy_mode,
    no_grad,
)
from .ops import *  # noqa: F401,F403  (ndl.exp, ndl.summation, ... as in dlsys)

__all__ = [
    "autograd", "init", "nn", "ops", "optim", "Op", "Tensor", "TensorOp", "TensorTuple",
    "TensorTupleOp", "Value", "is_grad_enabled", "lazy_mode", "no_grad",
] + list(ops.__all__)
