r"""Numerically stable log-sum-exp and log-softmax.

.. math::
    \operatorname{lse}(x) = \log \sum_i e^{x_i} = m + \log \sum_i e^{x_i - m},
    \qquad m = \max_i x_i

Subtracting the max keeps every exponent <= 0, so nothing overflows. The max is a
constant here (detached): its gradient cancels, since lse(x - c) + c = lse(x) for any c.
A slice whose entries are all -inf has lse = -inf (shifting by 0, not by -inf,
avoids -inf - (-inf) = nan).
"""
import numpy as np

from ..autograd import Tensor, TensorOp
from .nonlinear import exp
from .shape import _normalize_axes, broadcast_to, kept_shape, reshape, summation


def _finite_max(a: np.ndarray, axes: tuple) -> np.ndarray:
    """max over ``axes`` (kept as size 1), with +-inf and empty slices replaced by 0."""
    m = np.max(a, axis=axes, keepdims=True) if a.size else np.zeros(kept_shape(a.shape, axes), a.dtype)
    return np.where(np.isfinite(m), m, 0).astype(a.dtype, copy=False)


def _stable_softmax(a: Tensor, axes: tuple) -> Tensor:
    """softmax of ``a`` over ``axes``, built from ops so it is differentiable.

    e = exp(a - m) with m the detached max; softmax = e / sum(e). A slice that is all
    -inf has sum(e) = 0; adding 1 to that sum (a constant) makes its softmax 0, not nan.
    """
    data = a.realize_cached_data()
    shift = Tensor.make_const(_finite_max(data, axes))
    e = exp(a - broadcast_to(shift, data.shape))
    total = reshape(summation(e, axes), shift.shape)
    empty = Tensor.make_const((total.realize_cached_data() == 0).astype(data.dtype))
    return e / broadcast_to(total + empty, data.shape)


class LogSumExp(TensorOp):
    """log(sum(exp(a), axes)), reduced axes dropped;  d/da = softmax(a) over ``axes``."""

    def __init__(self, axes=None):
        self.axes = axes

    def compute(self, a):
        axes = _normalize_axes(self.axes, a.ndim)
        m = _finite_max(a, axes)
        with np.errstate(divide="ignore"):  # log(0) = -inf for an all -inf slice
            out = np.log(np.sum(np.exp(a - m), axis=axes, keepdims=True)) + m
        return np.squeeze(out, axis=axes)

    def gradient(self, out_grad, node):
        a = node.inputs[0]
        axes = _normalize_axes(self.axes, len(a.shape))
        kept = broadcast_to(reshape(out_grad, kept_shape(a.shape, axes)), a.shape)
        return kept * _stable_softmax(a, axes)


def logsumexp(a, axes=None):
    return LogSumExp(axes)(a)


class LogSoftmax(TensorOp):
    """a - lse(a) over ``axes`` (default: the last axis);
    d/da = out_grad - softmax(a) * sum(out_grad over axes)."""

    def __init__(self, axes=-1):
        self.axes = axes

    def compute(self, a):
        axes = _normalize_axes(self.axes, a.ndim)
        lse = np.expand_dims(LogSumExp(axes).compute(a), axes)
        # An all -inf slice: every entry is "log 0"; shift by 0 so it stays -inf, not nan.
        return a - np.where(np.isneginf(lse), 0, lse).astype(a.dtype, copy=False)

    def gradient(self, out_grad, node):
        a = node.inputs[0]
        axes = _normalize_axes(self.axes, len(a.shape))
        total = broadcast_to(reshape(summation(out_grad, axes), kept_shape(a.shape, axes)), a.shape)
        return out_grad - _stable_softmax(a, axes) * total


def logsoftmax(a, axes=-1):
    return LogSoftmax(axes)(a)
