"""Optimizers. Update rules are PyTorch's (torch.optim.SGD / Adam), written on the
parameters' data (what the ``.data`` setter replaces) so that a step never grows a graph:
parameters keep their identity and every reference to them (the model's attributes) sees
the new values."""
from __future__ import annotations

import math
from typing import Iterable

import numpy as np

from .autograd import Tensor


class Optimizer:
    def __init__(self, params: Iterable[Tensor]):
        self.params = list(params)
        if not self.params:
            raise ValueError("optimizer got an empty parameter list (did the model define Parameters?)")
        for i, p in enumerate(self.params):
            if not isinstance(p, Tensor):
                raise TypeError(f"optimizer params must be Tensors; item {i} is {type(p).__name__}")

    def reset_grad(self) -> None:
        """Forget the gradients (backward() accumulates into ``.grad``)."""
        for p in self.params:
            p.grad = None

    zero_grad = reset_grad  # PyTorch's name

    def step(self) -> None:
        raise NotImplementedError()

    def _grad(self, p: Tensor, weight_decay: float) -> np.ndarray:
        data, g = p.realize_cached_data(), p.grad.realize_cached_data()
        if g.shape != data.shape:
            raise ValueError(f"gradient of shape {g.shape} for a parameter of shape {data.shape}")
        g = _as_dtype(g, data.dtype)
        return g + weight_decay * data if weight_decay else g


def _as_dtype(array: np.ndarray, dtype) -> np.ndarray:
    """``array`` in ``dtype``: astype(copy=False) without its call when the dtype already matches
    (every step of every parameter)."""
    return array if array.dtype == dtype else array.astype(dtype)


def _check_hyper(name: str, value: float, low: float = 0.0, high: float = math.inf) -> None:
    if not low <= value < high:
        raise ValueError(f"invalid {name}: {value} (expected {low} <= {name} < {high})")


class SGD(Optimizer):
    """Stochastic gradient descent with PyTorch's momentum:

    g = grad + weight_decay * p
    buf = g at the first step, then momentum * buf + (1 - dampening) * g
    g = g + momentum * buf if nesterov else buf          (when momentum != 0)
    p = p - lr * g
    """

    def __init__(self, params, lr, momentum=0.0, dampening=0.0, weight_decay=0.0, nesterov=False):
        super().__init__(params)
        _check_hyper("lr", lr)
        _check_hyper("momentum", momentum)
        _check_hyper("weight_decay", weight_decay)
        if nesterov and (momentum <= 0 or dampening != 0):
            raise ValueError("Nesterov momentum requires momentum > 0 and dampening = 0")
        self.lr, self.momentum, self.dampening = lr, momentum, dampening
        self.weight_decay, self.nesterov = weight_decay, nesterov
        self.u: dict[int, np.ndarray] = {}  # momentum buffers, by id of the parameter

    def step(self) -> None:
        for p in self.params:
            if p.grad is None:
                continue
            g = self._grad(p, self.weight_decay)
            if self.momentum:
                buf = self.u.get(id(p))
                buf = g.copy() if buf is None else self.momentum * buf + (1 - self.dampening) * g
                self.u[id(p)] = buf
                g = g + self.momentum * buf if self.nesterov else buf
            # p - lr * g into a new array, as the .data setter would store it (its checks are
            # _grad's): the step is scaled into a fresh array and p added into that one, the same
            # bits with one large temporary fewer (a 784x256 layer's update is a quarter quicker).
            data = p.cached_data
            update = g * -self.lr
            update += data
            p.cached_data = _as_dtype(update, data.dtype)


class Adam(Optimizer):
    """Adam (Kingma & Ba) as PyTorch computes it, with L2 weight decay:

    g = grad + weight_decay * p;  m = b1 m + (1 - b1) g;  v = b2 v + (1 - b2) g^2
    p = p - lr * (m / (1 - b1^t)) / (sqrt(v / (1 - b2^t)) + eps)
    (eps outside the square root; t counts this parameter's steps).
    """

    def __init__(self, params, lr=1e-3, beta1=0.9, beta2=0.999, eps=1e-8, weight_decay=0.0):
        super().__init__(params)
        _check_hyper("lr", lr)
        _check_hyper("beta1", beta1, high=1.0)
        _check_hyper("beta2", beta2, high=1.0)
        _check_hyper("eps", eps)
        _check_hyper("weight_decay", weight_decay)
        self.lr, self.beta1, self.beta2, self.eps = lr, beta1, beta2, eps
        self.weight_decay = weight_decay
        self.t: dict[int, int] = {}
        self.m: dict[int, np.ndarray] = {}
        self.v: dict[int, np.ndarray] = {}

    def step(self) -> None:
        b1, b2 = self.beta1, self.beta2
        for p in self.params:
            if p.grad is None:
                continue
            key = id(p)
            g = self._grad(p, self.weight_decay)
            t = self.t[key] = self.t.get(key, 0) + 1
            m = self.m[key] = b1 * self.m.get(key, 0.0) + (1 - b1) * g
            v = self.v[key] = b2 * self.v.get(key, 0.0) + (1 - b2) * g * g
            m_hat = m / (1 - b1**t)
            v_hat = v / (1 - b2**t)
            data = p.cached_data  # as SGD: the .data setter's checks are _grad's
            p.cached_data = _as_dtype(data - self.lr * m_hat / (np.sqrt(v_hat) + self.eps), data.dtype)
