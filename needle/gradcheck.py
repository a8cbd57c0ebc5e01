"""Check analytic gradients against float64 central differences.

The output is contracted with a fixed random tensor C, L = sum(out * C), rather than
summed: with C = 1 a wrong transpose or broadcast in a gradient can go unnoticed.
Every element of every input is perturbed.
"""
from __future__ import annotations

from typing import Callable, Sequence

import numpy as np

from .autograd import Tensor, TensorTuple, no_grad


def _weights(out, rng) -> list[np.ndarray]:
    values = out.realize_cached_data()
    values = values if isinstance(out, TensorTuple) else (values,)
    return [rng.standard_normal(v.shape) for v in values]


def _contract(out, weights) -> float:
    values = out.realize_cached_data()
    values = values if isinstance(out, TensorTuple) else (values,)
    return float(sum(np.sum(v * w) for v, w in zip(values, weights)))


def central_differences(f: Callable[[np.ndarray], float], x, eps: float = 1e-6) -> np.ndarray:
    """dF/dx of a scalar function of one array, element by element, in float64:
    (F(x + eps e_i) - F(x - eps e_i)) / (2 eps), an error of O(eps^2)."""
    x = np.array(x, dtype=np.float64)
    g = np.zeros_like(x)
    for idx in np.ndindex(x.shape):
        saved = x[idx]
        x[idx] = saved + eps
        up = f(x)
        x[idx] = saved - eps
        down = f(x)
        x[idx] = saved
        g[idx] = (up - down) / (2 * eps)
    return g


def numerical_gradients(fn: Callable, arrays: Sequence[np.ndarray], weights, eps: float = 1e-6):
    """Central differences of L = sum(fn(*arrays) * weights) w.r.t. every array, in float64."""
    arrays = [np.array(a, dtype=np.float64) for a in arrays]

    def loss_varying(i: int):
        def loss(a: np.ndarray) -> float:
            inputs = [Tensor(a if j == i else b, dtype="float64") for j, b in enumerate(arrays)]
            with no_grad():
                return _contract(fn(*inputs), weights)

        return loss

    return [central_differences(loss_varying(i), a, eps) for i, a in enumerate(arrays)]


def analytic_gradients(fn: Callable, arrays: Sequence[np.ndarray], weights) -> list[np.ndarray]:
    """Gradients of L = sum(fn(*x) * weights) by needle's backward, in float64."""
    inputs = [Tensor(a, dtype="float64") for a in arrays]
    out = fn(*inputs)
    if isinstance(out, TensorTuple):
        loss = sum((out[i] * Tensor(w, dtype="float64", requires_grad=False)).sum() for i, w in enumerate(weights))
        loss.backward()
    else:
        out.backward(Tensor(weights[0], dtype="float64", requires_grad=False))
    return [np.zeros_like(a) if x.grad is None else x.grad.numpy() for a, x in zip(arrays, inputs)]


def gradcheck(fn: Callable, *arrays, seed: int = 0, eps: float = 1e-6, rtol: float = 1e-6, atol: float = 1e-8) -> None:
    """Raise AssertionError if needle's gradient of ``fn`` at ``arrays`` disagrees with
    central differences anywhere; the message names the input and the worst element."""
    arrays = [np.asarray(a, dtype=np.float64) for a in arrays]
    with no_grad():
        out = fn(*[Tensor(a, dtype="float64") for a in arrays])
    weights = _weights(out, np.random.default_rng(seed))
    analytic = analytic_gradients(fn, arrays, weights)
    numeric = numerical_gradients(fn, arrays, weights, eps)
    for i, (got, want) in enumerate(zip(analytic, numeric)):
        if got.shape != want.shape:
            raise AssertionError(f"input {i}: gradient has shape {got.shape}, expected {want.shape}")
        err = np.abs(got - want) - (atol + rtol * np.abs(want))
        if np.any(err > 0) or not np.all(np.isfinite(got)):
            worst = np.unravel_index(np.nanargmax(np.where(np.isfinite(got), err, np.inf)), got.shape)
            raise AssertionError(
                f"input {i}: analytic gradient {float(got[worst]):.8g} != numerical {float(want[worst]):.8g} at "
                f"index {tuple(int(k) for k in worst)} (max abs error {np.nanmax(np.abs(got - want)):.3g})"
            )
