r"""Numerically stable log-sum-exp and log-softmax.

.. math::
    \operatorname{lse}(x) = \log \sum_i e^{x_i} = m + \log \sum_i e^{x_i - m},
    \qquad m = \max_i x_i

Subtracting the max keeps every exponent <= 0, so nothing overflows. The max is a
constant here (detached): its gradient cancels, since lse(x - c) + c = lse(x) for any c.
log-softmax is computed as (x - m) - log(sum_i e^(x_i - m)), never as x - lse(x): in float32
m + log(s) rounds to m once m is large (1e9 + log 2 == 1e9), and x - lse(x) then loses log(s)
entirely. Both gradients are built from ops (exp of the log-softmax output, the softmax of the
shifted values), so second derivatives work.
A slice whose entries are all -inf has lse = -inf (shifting by 0, not by -inf,
avoids -inf - (-inf) = nan).
"""
import numpy as np

from ..autograd import Tensor, TensorOp
from .nonlinear import exp
from .shape import _normalize_axes, broadcast_to, kept_shape, reshape, summation


def _shift_and_log_sum(a: np.ndarray, axes: tuple) -> tuple:
    """(m, a - m, log(sum(exp(a - m))), every max finite) over ``axes``, reductions kept as
    size-1 axes; m is the max of each slice, or 0 where that is not finite (+-inf, nan, an empty
    slice). Each slice's log-sum is >= 0 (its max adds exp(0) = 1), except -inf for a slice of
    only -inf."""
    # m is detached: lse(a - m) + m = lse(a) for any constant m.
    if a.size:
        m = a.max(axis=axes, keepdims=True)
        if np.logical_and.reduce(np.isfinite(m), axis=None):  # every max finite (.all(), without its Python wrapper)
            shifted = a - m
            return m, shifted, np.log(np.exp(shifted).sum(axis=axes, keepdims=True)), True
        m = np.where(np.isfinite(m), m, 0)
    else:
        m = np.zeros(kept_shape(a.shape, axes), a.dtype)
    shifted = a - m
    s = np.exp(shifted).sum(axis=axes, keepdims=True)
    # log(0) = -inf for an all -inf slice, without a divide-by-zero warning
    return m, shifted, np.log(s, out=np.full_like(s, -np.inf), where=s > 0), False


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
        m, _, log_sum, _ = _shift_and_log_sum(a, axes)
        return (log_sum + m).squeeze(axis=axes)

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
        _, shifted, log_sum, finite = _shift_and_log_sum(a, _normalize_axes(self.axes, a.ndim))
        if not finite:  # a slice of only -inf has log_sum -inf and every entry "log 0": clamped
            log_sum = np.maximum(log_sum, 0)  # at 0, it stays -inf rather than -inf - (-inf) = nan
        return shifted - log_sum  # not a - (m + log_sum): m + log_sum rounds for large m

    def gradient(self, out_grad, node):
        axes = _normalize_axes(self.axes, len(node.shape))
        return out_grad - exp(node) * broadcast_to(summation(out_grad, axes, keepdims=True), node.shape)


def logsoftmax(a, axes=-1):
    return LogSoftmax(axes)(a)
