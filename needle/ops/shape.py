"""Ops that move or reduce elements without arithmetic on them."""
import functools

import numpy as np

from ..autograd import TensorOp


def _normalize_axes(axes, ndim: int) -> tuple:
    """``axes`` (None, an int or a sequence) as a sorted tuple of non-negative ints."""
    if axes is None:
        return tuple(range(ndim))
    if isinstance(axes, (int, np.integer)):
        axes = (axes,)
    return _normalized(tuple(int(axis) for axis in axes), ndim)


@functools.lru_cache(maxsize=1024)  # gradients ask for the same few (axes, ndim) pairs
def _normalized(axes: tuple, ndim: int) -> tuple:
    for axis in axes:
        if not -ndim <= axis < ndim:
            raise ValueError(f"axis {axis} is out of range for a tensor with {ndim} dimensions")
    normalized = tuple(sorted(axis % ndim for axis in axes))
    if len(set(normalized)) != len(normalized):
        raise ValueError(f"repeated axis in {axes}")
    return normalized


@functools.lru_cache(maxsize=1024)
def _kept_shape(shape: tuple, axes) -> tuple:
    reduced = _normalize_axes(axes, len(shape))
    return tuple(1 if i in reduced else n for i, n in enumerate(shape))


def kept_shape(shape: tuple, axes) -> tuple:
    """``shape`` with the reduced ``axes`` kept as size 1 (for broadcasting back)."""
    return _kept_shape(tuple(shape), axes if axes is None or isinstance(axes, int) else tuple(axes))


class Reshape(TensorOp):
    """Same elements, new shape;  the adjoint is reshaped back."""

    def __init__(self, shape):
        self.shape = tuple(shape)

    def compute(self, a):
        try:
            return a.reshape(self.shape)
        except ValueError:
            raise ValueError(
                f"reshape: cannot reshape a tensor of shape {a.shape} ({a.size} elements) "
                f"into shape {self.shape}"
            ) from None

    def gradient(self, out_grad, node):
        return reshape(out_grad, node.inputs[0].shape)


def reshape(a, shape):
    return Reshape(shape)(a)


class BroadcastTo(TensorOp):
    """Repeat along new leading axes and size-1 axes;  the adjoint sums over them."""

    def __init__(self, shape):
        self.shape = tuple(shape)

    def compute(self, a):
        if a.shape == self.shape:
            return a
        lead = len(self.shape) - a.ndim
        if lead < 0 or any(n != m and n != 1 for n, m in zip(a.shape, self.shape[lead:])):
            raise ValueError(
                f"broadcast_to: cannot broadcast shape {a.shape} to {self.shape} (each axis "
                f"must match or be 1, new axes go in front)"
            )
        if not a.flags.c_contiguous or a.size == 0:
            return np.broadcast_to(a, self.shape)
        # A read-only view with stride 0 on repeated axes, built directly: np.broadcast_to
        # makes the same view with several microseconds of Python on top.
        strides = (0,) * lead + tuple(s if n == m else 0 for n, m, s in zip(a.shape, self.shape[lead:], a.strides))
        out = np.ndarray(self.shape, a.dtype, a, 0, strides)
        out.flags.writeable = False
        return out

    def gradient(self, out_grad, node):
        in_shape = node.inputs[0].shape
        lead = len(self.shape) - len(in_shape)
        axes = tuple(range(lead)) + tuple(
            lead + i for i, n in enumerate(in_shape) if n == 1 and self.shape[lead + i] != 1
        )
        grad = summation(out_grad, axes) if axes else out_grad
        return reshape(grad, in_shape)


def broadcast_to(a, shape):
    return BroadcastTo(shape)(a)


class Summation(TensorOp):
    """Sum over ``axes`` (all when None), dropping them;  the adjoint is broadcast back."""

    def __init__(self, axes=None):
        self.axes = axes

    def compute(self, a):
        return a.sum(axis=_normalize_axes(self.axes, a.ndim))

    def gradient(self, out_grad, node):
        in_shape = node.inputs[0].shape
        return broadcast_to(reshape(out_grad, kept_shape(in_shape, self.axes)), in_shape)


def summation(a, axes=None):
    return Summation(axes)(a)


class Transpose(TensorOp):
    """Swap two axes (default: the last two), as dlsys and torch.transpose do;
    the adjoint is swapped back."""

    def __init__(self, axes=None):
        if axes is not None and len(axes) != 2:
            raise ValueError(
                f"transpose swaps two axes, got axes={axes!r}; pass a pair such as (0, 1)"
            )
        self.axes = axes

    def compute(self, a):
        if a.ndim < 2:
            raise ValueError(f"transpose needs at least 2 dimensions, got shape {a.shape}")
        i, j = (-2, -1) if self.axes is None else self.axes
        return a.swapaxes(i, j)

    def gradient(self, out_grad, node):
        return transpose(out_grad, self.axes)


def transpose(a, axes=None):
    return Transpose(axes)(a)
