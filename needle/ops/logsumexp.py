r"""Numerically stable log-sum-exp and log-softmax.

.. math::
    \operatorname{lse}(x) = \log \sum_i e^{x_i} = m + \log \sum_i e^{x_i - m},
    \qquad m = \max_i x_i

Subtracting the max keeps every exponent <= 0, so nothing overflows. The max is a
constant here (detached): its gradient cancels, since lse(x - c) + c = lse(x) for any c.
Both gradients are built from ops (exp of the log-softmax output), so second
derivatives work.
A slice whose entries are all -inf has lse = -inf (shifting by 0, not by -inf,
avoids -inf - (-inf) = nan).
"""
import numpy as np

from ..autograd import Tensor, TensorOp
from .nonlinear import exp
from .shape import _normalize_axes, broadcast_to, kept_shape, reshape, summation


def _finite_max(a: np.ndarray, axes: tuple) -> np.ndarray:
    """max over ``axes`` (kept as size 1), with +-inf and empty slices replaced by 0."""
    if a.size == 0:
        return np.zeros(kept_shape(a.shape, axes), a.dtype)
    m = a.max(axis=axes, keepdims=True)
    if not np.isfinite(m).all():
        m = np.where(np.isfinite(m), m, 0)
    return m


def _lse_keepdims(a: np.ndarray, axes: tuple) -> np.ndarray:
    """Stable log-sum-exp over ``axes``, kept as size-1 axes."""
    m = _finite_max(a, axes)  # detached: lse(a - m) + m = lse(a) for any constant m
    s = np.exp(a - m).sum(axis=axes, keepdims=True)
    if s.size and s.min() > 0:
        return np.log(s) + m
    # log(0) = -inf for an all -inf slice, without a divide-by-zero warning
    return np.log(s, out=np.full_like(s, -np.inf), where=s > 0) + m


def _expand(t: Tensor, axes: tuple, shape: tuple) -> Tensor:
    """Broadcast a tensor reduced over ``axes`` back to ``shape``."""
    return broadcast_to(reshape(t, kept_shape(shape, axes)), shape)


class LogSumExp(TensorOp):
    """log(sum(exp(a), axes)), reduced axes dropped;
    d/da = softmax(a) = exp(logsoftmax(a)) over ``axes``."""

    def __init__(self, axes=None):
        self.axes = axes

    def compute(self, a):
        axes = _normalize_axes(self.axes, a.ndim)
        return _lse_keepdims(a, axes).squeeze(axis=axes)

    def gradient(self, out_grad, node):
        a = node.inputs[0]
        axes = _normalize_axes(self.axes, len(a.shape))
        # exp(logsoftmax) rather than exp(a - lse): 0, not nan, on an all -inf slice.
        return _expand(out_grad, axes, a.shape) * exp(logsoftmax(a, axes))


def logsumexp(a, axes=None):
    return LogSumExp(axes)(a)


class LogSoftmax(TensorOp):
    """a - lse(a) over ``axes`` (default: the last axis);
    d/da = out_grad - softmax(a) * sum(out_grad over axes), with softmax = exp(output)."""

    def __init__(self, axes=-1):
        self.axes = axes

    def compute(self, a):
        lse = _lse_keepdims(a, _normalize_axes(self.axes, a.ndim))
        if np.isneginf(lse).any():
            # An all -inf slice: every entry is "log 0"; shift by 0 so it stays -inf, not nan.
            lse = np.where(np.isneginf(lse), 0, lse)
        return a - lse

    def gradient(self, out_grad, node):
        axes = _normalize_axes(self.axes, len(node.shape))
        return out_grad - exp(node) * _expand(summation(out_grad, axes), axes, node.shape)


def logsoftmax(a, axes=-1):
    return LogSoftmax(axes)(a)
