"""Ops that move or reduce elements without arithmetic on them."""
import functools

import numpy as np

from ..autograd import TensorOp


def _normalize_axes(axes, ndim: int) -> tuple:
    """``axes`` (None, an int or a sequence) as a sorted tuple of non-negative ints."""
    if isinstance(axes, (int, np.integer)):
        axes = (axes,)
    elif axes is not None:
        axes = tuple(axes)
    try:
        return _normalized(axes, ndim)
    except TypeError:  # an axis that cannot be a cache key (a 0-d array): convert it first
        return _normalized(tuple(int(axis) for axis in axes), ndim)


@functools.lru_cache(maxsize=1024)  # every op asks for the same few (axes, ndim) pairs
def _normalized(axes, ndim: int) -> tuple:
    if axes is None:
        return tuple(range(ndim))
    axes = tuple(int(axis) for axis in axes)
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
        strides = _broadcast_strides(a.shape, a.strides, self.shape)
        if strides is None:  # already that shape
            return a
        if not a.flags.c_contiguous or a.size == 0:
            return np.broadcast_to(a, self.shape)
        # The read-only view np.broadcast_to makes, built directly (it adds microseconds of
        # Python): stride 0 repeats an element along the new and the size-1 axes.
        return np.ndarray(self.shape, a.dtype, memoryview(a).toreadonly(), 0, strides)

    def gradient(self, out_grad, node):
        in_shape = node.inputs[0].shape
        axes = _repeated_axes(in_shape, self.shape)
        lead = len(self.shape) - len(in_shape)
        if axes == tuple(range(lead)):  # only new leading axes (or none): the sum drops exactly them
            return summation(out_grad, axes) if axes else out_grad
        if lead == 0:  # only size-1 axes: the sum keeps them
            return summation(out_grad, axes, keepdims=True)
        return reshape(summation(out_grad, axes), in_shape)


@functools.lru_cache(maxsize=1024)  # a model broadcasts the same few shapes at every step
def _broadcast_strides(in_shape: tuple, in_strides: tuple, shape: tuple):
    """The strides of ``in_shape`` (``in_strides``) repeated to ``shape``, or None if the shapes
    are equal."""
    if in_shape == shape:
        return None
    lead = len(shape) - len(in_shape)
    if lead < 0 or any(n != m and n != 1 for n, m in zip(in_shape, shape[lead:])):
        raise ValueError(
            f"broadcast_to: cannot broadcast shape {in_shape} to {shape} (each axis "
            f"must match or be 1, new axes go in front)"
        )
    return (0,) * lead + tuple(s if n == m else 0 for n, m, s in zip(in_shape, shape[lead:], in_strides))


@functools.lru_cache(maxsize=1024)
def _repeated_axes(in_shape: tuple, shape: tuple) -> tuple:
    """The axes of ``shape`` along which broadcasting ``in_shape`` repeats: the new leading
    axes and the size-1 axes."""
    lead = len(shape) - len(in_shape)
    return tuple(range(lead)) + tuple(lead + i for i, n in enumerate(in_shape) if n == 1 and shape[lead + i] != 1)


def broadcast_to(a, shape):
    return BroadcastTo(shape)(a)


class Summation(TensorOp):
    """Sum over ``axes`` (all when None), dropping them (or keeping them as size 1 with
    ``keepdims``, as numpy's sum does);  the adjoint is broadcast back."""

    def __init__(self, axes=None, keepdims=False):
        self.axes = axes
        self.keepdims = keepdims

    def compute(self, a):
        # np.add.reduce is a.sum without its Python wrapper
        return np.add.reduce(a, axis=_normalize_axes(self.axes, a.ndim), keepdims=self.keepdims)

    def gradient(self, out_grad, node):
        in_shape = node.inputs[0].shape
        axes = _normalize_axes(self.axes, len(in_shape))
        if not self.keepdims and axes != tuple(range(len(axes))):  # broadcast_to puts back leading axes by itself
            out_grad = reshape(out_grad, kept_shape(in_shape, axes))
        return broadcast_to(out_grad, in_shape)


def summation(a, axes=None, keepdims=False):
    return Summation(axes, keepdims)(a)


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
