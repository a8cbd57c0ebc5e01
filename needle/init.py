r"""Tensor factories and weight initializers.

Random draws use numpy's global generator, so ``np.random.seed(s)`` makes them
reproducible. Initializers return arrays of shape ``(fan_in, fan_out)``, the layout
of ``Linear.weight`` (``x @ W``).

Kaiming (He et al., 2015): for ``y = W^T x`` with ReLU inputs, Var(y) = fan_in Var(W) E[x^2]
and E[relu(z)^2] = Var(z)/2, so keeping the variance needs Var(W) = 2 / fan_in: gain
sqrt(2). Normal: std = gain / sqrt(fan_in). Uniform U(-b, b) has variance b^2/3, so
b = gain * sqrt(3 / fan_in).
Xavier (Glorot & Bengio, 2010): Var(W) = gain^2 * 2 / (fan_in + fan_out).
"""
import functools
import math

import numpy as np

from .autograd import Tensor


def _tensor(array, dtype, requires_grad) -> Tensor:
    return Tensor.make_const(np.asarray(array, dtype=dtype), requires_grad=requires_grad)


def _shape(shape) -> tuple:
    if len(shape) == 1 and isinstance(shape[0], (tuple, list)):
        shape = tuple(shape[0])
    for n in shape:
        if not isinstance(n, (int, np.integer)) or n < 0:
            raise ValueError(f"shape entries must be non-negative integers, got {shape}")
    return tuple(int(n) for n in shape)


def rand(*shape, low=0.0, high=1.0, dtype="float32", requires_grad=False) -> Tensor:
    """Uniform in [low, high)."""
    return _tensor(np.random.uniform(low, high, _shape(shape)), dtype, requires_grad)


def randn(*shape, mean=0.0, std=1.0, dtype="float32", requires_grad=False) -> Tensor:
    """Normal with the given mean and standard deviation."""
    return _tensor(np.random.normal(mean, std, _shape(shape)), dtype, requires_grad)


def constant(*shape, c=1.0, dtype="float32", requires_grad=False) -> Tensor:
    return _tensor(np.full(_shape(shape), c), dtype, requires_grad)


def ones(*shape, dtype="float32", requires_grad=False) -> Tensor:
    return constant(*shape, c=1.0, dtype=dtype, requires_grad=requires_grad)


def zeros(*shape, dtype="float32", requires_grad=False) -> Tensor:
    return constant(*shape, c=0.0, dtype=dtype, requires_grad=requires_grad)


def randb(*shape, p=0.5, dtype="bool", requires_grad=False) -> Tensor:
    """Bernoulli: each entry is 1 (True) with probability p."""
    if not 0.0 <= p <= 1.0:
        raise ValueError(f"randb: p must be a probability in [0, 1], got {p}")
    return _tensor(np.random.uniform(size=_shape(shape)) < p, dtype, requires_grad)


def one_hot(n: int, i, dtype="float32", requires_grad=False) -> Tensor:
    """Rows of the n x n identity picked by the integer labels ``i``."""
    return Tensor.make_const(one_hot_array(n, i, dtype), requires_grad=requires_grad)


def one_hot_array(n: int, i, dtype="float32", value=1) -> np.ndarray:
    """``one_hot``'s numpy array, with ``value`` where a row's 1 would be (a loss's weights)."""
    labels = np.asarray(i.numpy() if isinstance(i, Tensor) else i)
    if labels.dtype.kind not in "iu":
        if labels.size and (labels.dtype.kind != "f" or np.any(labels != np.round(labels))):
            raise ValueError(f"one_hot expects integer class labels, got {labels.dtype} values")
        labels = labels.astype(np.int64)
    # Viewed as unsigned, a negative label is larger than any class: one reduction checks both ends.
    if labels.size and np.maximum.reduce(labels.view(labels.dtype.str.replace("i", "u")), axis=None) >= n:
        raise ValueError(f"one_hot: labels must lie in [0, {n}), got min {labels.min()}, max {labels.max()}")
    if n <= _ROWS_KEPT_UP_TO and type(value) in (int, float):  # a loss asks at every step: rows of a kept table
        return _one_hot_rows(n, dtype, value)[labels]
    out = np.zeros((labels.size, n), dtype=dtype)
    out[np.arange(labels.size), labels.ravel()] = value
    return out.reshape(labels.shape + (n,))


_ROWS_KEPT_UP_TO = 256  # classes; the table is n x n


@functools.lru_cache(maxsize=16)
def _one_hot_rows(n: int, dtype, value) -> np.ndarray:
    """The n x n table whose row i is one_hot_array(n, i, dtype, value) (read-only: it is shared)."""
    table = np.zeros((n, n), dtype=dtype)
    np.fill_diagonal(table, value)
    table.flags.writeable = False
    return table


def zeros_like(array: Tensor, *, dtype=None, requires_grad=False) -> Tensor:
    return zeros(*array.shape, dtype=dtype or array.dtype, requires_grad=requires_grad)


def ones_like(array: Tensor, *, dtype=None, requires_grad=False) -> Tensor:
    return ones(*array.shape, dtype=dtype or array.dtype, requires_grad=requires_grad)


_GAINS = {
    "linear": 1.0,
    "identity": 1.0,
    "sigmoid": 1.0,
    "tanh": 5.0 / 3.0,
    "relu": math.sqrt(2.0),
    "leaky_relu": math.sqrt(2.0 / (1 + 0.01**2)),  # PyTorch's default slope 0.01
}


def calculate_gain(nonlinearity: str) -> float:
    """The factor by which ``nonlinearity`` is scaled to keep variance (as PyTorch)."""
    try:
        return _GAINS[nonlinearity]
    except KeyError:
        raise ValueError(
            f"unknown nonlinearity {nonlinearity!r}; expected one of {sorted(_GAINS)}"
        ) from None


def _check_fans(name, fan_in, fan_out):
    for label, n in (("fan_in", fan_in), ("fan_out", fan_out)):
        if not isinstance(n, (int, np.integer)) or n <= 0:
            raise ValueError(f"{name}: {label} must be a positive integer, got {n!r}")


def xavier_uniform(fan_in, fan_out, gain=1.0, **kwargs) -> Tensor:
    """U(-a, a) with a = gain * sqrt(6 / (fan_in + fan_out))."""
    _check_fans("xavier_uniform", fan_in, fan_out)
    a = gain * math.sqrt(6.0 / (fan_in + fan_out))
    return rand(fan_in, fan_out, low=-a, high=a, **kwargs)


def xavier_normal(fan_in, fan_out, gain=1.0, **kwargs) -> Tensor:
    """N(0, std^2) with std = gain * sqrt(2 / (fan_in + fan_out))."""
    _check_fans("xavier_normal", fan_in, fan_out)
    std = gain * math.sqrt(2.0 / (fan_in + fan_out))
    return randn(fan_in, fan_out, std=std, **kwargs)


def kaiming_uniform(fan_in, fan_out, nonlinearity="relu", **kwargs) -> Tensor:
    """U(-b, b) with b = gain * sqrt(3 / fan_in) (Var = gain^2 / fan_in)."""
    _check_fans("kaiming_uniform", fan_in, fan_out)
    bound = calculate_gain(nonlinearity) * math.sqrt(3.0 / fan_in)
    return rand(fan_in, fan_out, low=-bound, high=bound, **kwargs)


def kaiming_normal(fan_in, fan_out, nonlinearity="relu", **kwargs) -> Tensor:
    """N(0, std^2) with std = gain / sqrt(fan_in)."""
    _check_fans("kaiming_normal", fan_in, fan_out)
    std = calculate_gain(nonlinearity) / math.sqrt(fan_in)
    return randn(fan_in, fan_out, std=std, **kwargs)
