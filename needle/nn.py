"""Modules: parameters, composable layers and losses.

A ``Module`` finds its parameters by walking its ``__dict__``: Parameters, sub-Modules,
and dicts, lists and tuples of them, recursively. No registration calls needed.
"""
from __future__ import annotations

from typing import Any, Iterator

import numpy as np

from . import init, ops
from .autograd import Tensor


class Parameter(Tensor):
    """A Tensor that is a trainable parameter of a Module (a marker, nothing more)."""

    __slots__ = ()


def _walk(value: Any, prefix: str, seen: set[int], descend: bool = True) -> Iterator[tuple[str, Any]]:
    """Yield (dotted name, object) for every Parameter and Module inside ``value``,
    in attribute order, each object once (by identity). With ``descend=False`` the
    walk does not enter the Modules it finds."""
    if isinstance(value, (Parameter, Module)):
        if id(value) in seen:
            return
        seen.add(id(value))
        yield prefix, value
        if descend and isinstance(value, Module):
            yield from _walk_dict(value.__dict__, prefix, seen, descend)
    elif isinstance(value, dict):
        yield from _walk_dict(value, prefix, seen, descend)
    elif isinstance(value, (list, tuple)):
        yield from _walk_dict(dict(enumerate(value)), prefix, seen, descend)


def _walk_dict(d: dict, prefix: str, seen: set[int], descend: bool = True) -> Iterator[tuple[str, Any]]:
    for key, item in list(d.items()):
        yield from _walk(item, f"{prefix}.{key}" if prefix else str(key), seen, descend)


class Module:
    """Base class of layers and models: call it to run ``forward``."""

    training = True

    def __init__(self):
        self.training = True

    def named_parameters(self) -> list[tuple[str, Parameter]]:
        """(dotted name, Parameter) pairs, e.g. ``("layers.0.weight", W)``; shared ones once."""
        return [(name, p) for name, p in _walk_dict(self.__dict__, "", {id(self)}) if isinstance(p, Parameter)]

    def parameters(self) -> list[Parameter]:
        """Every Parameter reachable from this module, each once, in attribute order."""
        return [p for _, p in self.named_parameters()]

    def named_modules(self) -> list[tuple[str, "Module"]]:
        """This module (name "") and every sub-module, each once."""
        found = _walk_dict(self.__dict__, "", {id(self)})
        return [("", self)] + [(name, m) for name, m in found if isinstance(m, Module)]

    def modules(self) -> list["Module"]:
        return [m for _, m in self.named_modules()]

    def named_children(self) -> list[tuple[str, "Module"]]:
        """The direct sub-modules (held in attributes, or in dicts/lists/tuples of them)."""
        found = _walk_dict(self.__dict__, "", {id(self)}, descend=False)
        return [(name, m) for name, m in found if isinstance(m, Module)]

    def children(self) -> list["Module"]:
        return [m for _, m in self.named_children()]

    def train(self, mode: bool = True) -> "Module":
        for m in self.modules():
            m.training = mode
        return self

    def eval(self) -> "Module":
        return self.train(False)

    def forward(self, *args, **kwargs):
        raise NotImplementedError(f"{type(self).__name__} must define forward()")

    def __call__(self, *args, **kwargs):
        return self.forward(*args, **kwargs)

    def __repr__(self) -> str:
        kids = [f"  ({name}): {m!r}".replace("\n", "\n  ") for name, m in self.named_children()]
        return f"{type(self).__name__}(" + ("\n" + "\n".join(kids) + "\n" if kids else "") + ")"


class Identity(Module):
    def forward(self, x):
        return x


class Linear(Module):
    """y = x W + b, with W of shape (in_features, out_features) and b of shape (1, out).

    W ~ kaiming_uniform(in, out) (ReLU gain); b ~ U(-1/sqrt(in), 1/sqrt(in)) as in PyTorch.
    The bias is broadcast explicitly: needle never broadcasts implicitly.
    """

    def __init__(self, in_features: int, out_features: int, bias: bool = True, dtype="float32"):
        super().__init__()
        self.in_features = in_features
        self.out_features = out_features
        self.weight = Parameter(init.kaiming_uniform(in_features, out_features, dtype=dtype), dtype=dtype)
        if bias:
            bound = 1.0 / np.sqrt(in_features)
            self.bias = Parameter(init.rand(1, out_features, low=-bound, high=bound, dtype=dtype), dtype=dtype)
        else:
            self.bias = None

    def forward(self, x: Tensor) -> Tensor:
        if x.shape[-1] != self.in_features:
            raise ValueError(
                f"Linear({self.in_features}, {self.out_features}) got input of shape {x.shape}; "
                f"expected last axis {self.in_features}"
            )
        y = x @ self.weight
        if self.bias is not None:
            y = y + ops.broadcast_to(self.bias, y.shape)
        return y

    def __repr__(self) -> str:
        return f"Linear(in_features={self.in_features}, out_features={self.out_features}, bias={self.bias is not None})"


class ReLU(Module):
    def forward(self, x):
        return ops.relu(x)


class Sequential(Module):
    """Apply modules in order."""

    def __init__(self, *modules: Module):
        super().__init__()
        self.layers = list(modules)

    def forward(self, x):
        for m in self.layers:
            x = m(x)
        return x

    def __getitem__(self, i):
        return self.layers[i]

    def __len__(self):
        return len(self.layers)


class Residual(Module):
    """fn(x) + x."""

    def __init__(self, fn: Module):
        super().__init__()
        self.fn = fn

    def forward(self, x):
        return self.fn(x) + x


class Flatten(Module):
    """(N, d1, d2, ...) -> (N, d1 * d2 * ...)."""

    def forward(self, x):
        return x.reshape((x.shape[0], int(np.prod(x.shape[1:]))))


class L2Loss(Module):
    """The lecture's element-wise squared difference (x - y)^2 (shape of x).

    For a one-element prediction this is the loss itself; sum or average it for a batch.
    """

    def forward(self, x, y):
        z = x + (-1) * y
        return z * z


class SoftmaxLoss(Module):
    """Mean over the batch of cross-entropy, lse(z_i) - z_i[y_i] = -logsoftmax(z_i)[y_i], for
    logits z (N, k) and integer labels y (N,). Through logsoftmax = z - logsumexp(z): stable,
    and fewer graph ops than subtracting the picked logit from a separate logsumexp. The mean's
    -1/N is folded into the constant one-hot weights: one op fewer forward and backward."""

    def forward(self, logits: Tensor, y) -> Tensor:
        n, k = logits.shape
        labels = y.numpy() if isinstance(y, Tensor) else np.asarray(y)
        if labels.shape != (n,):
            raise ValueError(f"SoftmaxLoss: labels have shape {labels.shape}, expected ({n},) for logits {logits.shape}")
        weights = Tensor.make_const(init.one_hot_array(k, labels, logits.dtype, value=-1.0 / n))
        return ops.summation(ops.logsoftmax(logits, axes=(1,)) * weights)


class LayerNorm1d(Module):
    """Normalize each row over its features, then scale by weight and shift by bias."""

    def __init__(self, dim: int, eps: float = 1e-5, dtype="float32"):
        super().__init__()
        self.dim = dim
        self.eps = eps
        self.weight = Parameter(init.ones(dim, dtype=dtype), dtype=dtype)
        self.bias = Parameter(init.zeros(dim, dtype=dtype), dtype=dtype)

    def forward(self, x: Tensor) -> Tensor:
        n, d = x.shape
        mean = (x.sum(axes=(1,)) / d).reshape((n, 1)).broadcast_to(x.shape)
        centered = x - mean
        var = ((centered**2).sum(axes=(1,)) / d).reshape((n, 1)).broadcast_to(x.shape)
        normalized = centered / (var + self.eps) ** 0.5
        return self.weight.reshape((1, d)).broadcast_to(x.shape) * normalized + self.bias.reshape((1, d)).broadcast_to(x.shape)


class BatchNorm1d(Module):
    """Normalize each feature over the batch; in eval mode use the running statistics.

    As PyTorch: running_mean/var are updated with ``momentum`` (new = (1 - m) old + m batch),
    the running variance with the unbiased batch variance, normalization with the biased one.
    """

    def __init__(self, dim: int, eps: float = 1e-5, momentum: float = 0.1, dtype="float32"):
        super().__init__()
        self.dim = dim
        self.eps = eps
        self.momentum = momentum
        self.weight = Parameter(init.ones(dim, dtype=dtype), dtype=dtype)
        self.bias = Parameter(init.zeros(dim, dtype=dtype), dtype=dtype)
        # Buffers, not Parameters: they are not trained.
        self.running_mean = init.zeros(dim, dtype=dtype)
        self.running_var = init.ones(dim, dtype=dtype)

    def forward(self, x: Tensor) -> Tensor:
        n, d = x.shape
        if self.training:
            mean = x.sum(axes=(0,)) / n
            centered = x - mean.reshape((1, d)).broadcast_to(x.shape)
            var = (centered**2).sum(axes=(0,)) / n
            m = self.momentum
            unbiased = var.data * (n / max(n - 1, 1))
            self.running_mean = self.running_mean * (1 - m) + mean.data * m
            self.running_var = self.running_var * (1 - m) + unbiased * m
        else:
            mean, var = self.running_mean, self.running_var
            centered = x - mean.reshape((1, d)).broadcast_to(x.shape)
        std = (var.reshape((1, d)).broadcast_to(x.shape) + self.eps) ** 0.5
        return self.weight.reshape((1, d)).broadcast_to(x.shape) * (centered / std) + self.bias.reshape((1, d)).broadcast_to(x.shape)


class Dropout(Module):
    """Zero each entry with probability p and scale the rest by 1/(1-p) (inverted
    dropout), so eval mode is the identity."""

    def __init__(self, p: float = 0.5):
        super().__init__()
        if not 0.0 <= p < 1.0:
            raise ValueError(f"Dropout: p must be in [0, 1), got {p}")
        self.p = p

    def forward(self, x: Tensor) -> Tensor:
        if not self.training or self.p == 0:
            return x
        keep = init.randb(*x.shape, p=1 - self.p, dtype=x.dtype)
        return x * keep / (1 - self.p)
