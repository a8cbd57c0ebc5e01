r"""Numerically stable log-sum-exp and log-softmax.

.. math::
    \operatorname{lse}(x) = \log \sum_i e^{x_i} = m + \log \sum_i e^{x_i - m},
    \qquad m = \max_i x_i

Subtracting the max keeps every exponent <= 0, so nothing overflows. The max is a
constant here (detached): its gradient cancels, since lse(x - c) + c = lse(x) for any c.
log-softmax is computed as (x - m) - log(sum_i e^(x_i - m)), never as x - lse(x): in float32
m + log(s) rounds to m once m is large (1e9 + log 2 == 1e9), and x - lse(x) then loses log(s)
entirely. LogSumExp's gradient is built from ops (exp of the log-softmax output); LogSoftmax's
is one op, LogSoftmaxBackward, whose own gradient is built from ops: second derivatives work.
A slice whose entries are all -inf has lse = -inf (shifting by 0, not by -inf,
avoids -inf - (-inf) = nan).
"""
import numpy as np

from ..autograd import Tensor, TensorOp
from ._checks import mismatch
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
    d/da = out_grad - softmax(a) * sum(out_grad over axes), with softmax = exp(output)
    (LogSoftmaxBackward)."""

    def __init__(self, axes=-1):
        self.axes = axes

    def compute(self, a):
        _, shifted, log_sum, finite = _shift_and_log_sum(a, _normalize_axes(self.axes, a.ndim))
        if not finite:  # a slice of only -inf has log_sum -inf and every entry "log 0": clamped
            log_sum = np.maximum(log_sum, 0)  # at 0, it stays -inf rather than -inf - (-inf) = nan
        return shifted - log_sum  # not a - (m + log_sum): m + log_sum rounds for large m

    def gradient(self, out_grad, node):
        return logsoftmax_backward(out_grad, node, self.axes)


class LogSoftmaxBackward(TensorOp):
    """LogSoftmax's gradient as one op: g - exp(y) * S(g), where g is the adjoint of
    y = logsoftmax(a), exp(y) = softmax(a) and S sums over ``axes``, broadcast back.

    One op and two full-size temporaries where the same formula written with ops takes six ops
    (sum, broadcast, exp, multiply, negate, add) and three, as PyTorch's log_softmax backward is
    one kernel. Its own gradient is built from ops, so higher derivatives still work. With w the
    adjoint of the output and p = exp(y), within a slice d out_i / d g_k = [i == k] - p_i, so
        d/dg = w - S(w * p),        d/dy = -w * p * S(g).
    """

    def __init__(self, axes=-1):
        self.axes = axes

    def compute(self, g, y):
        if g.shape != y.shape or g.dtype != y.dtype:
            mismatch("logsoftmax_backward", g, y)
        return g - np.exp(y) * np.add.reduce(g, axis=_normalize_axes(self.axes, y.ndim), keepdims=True)

    def gradient(self, out_grad, node):
        g, y = node.inputs
        axes = _normalize_axes(self.axes, len(y.shape))
        wp = out_grad * exp(y)  # both adjoints use w * p
        grad_g = out_grad - _sum_back(wp, axes) if g.requires_grad else None
        grad_y = -(wp * _sum_back(g, axes)) if y.requires_grad else None
        return grad_g, grad_y


def _sum_back(t: Tensor, axes: tuple) -> Tensor:
    """The sum of ``t`` over ``axes``, broadcast back to ``t``'s shape."""
    return broadcast_to(summation(t, axes, keepdims=True), t.shape)


def logsoftmax(a, axes=-1):
    return LogSoftmax(axes)(a)


def logsoftmax_backward(g, y, axes=-1):
    return LogSoftmaxBackward(axes)(g, y)
