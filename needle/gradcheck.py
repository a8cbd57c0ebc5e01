"""Check analytic gradients against float64 central differences.

The output is contracted with a fixed random tensor C, L = sum(out * C), rather than
summed: with C = 1 a wrong transpose or broadcast in a gradient can go unnoticed.
Every element of every input is perturbed.

Besides ``gradcheck`` (a function's gradient by needle's backward), two references that trust
no gradient at all, only the ops' ``compute`` (needle.viz's debuggers use them):
``op_adjoints`` (what one op's ``gradient`` should return for given inputs) and
``node_adjoints`` (what reverse-mode AD should store for every node of a graph).
"""
from __future__ import annotations

from typing import Callable, Sequence

import numpy as np

from .autograd import Tensor, TensorTuple, Value, no_grad


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


# --- references from the ops' compute alone ------------------------------------------------
def as_float64(value):
    """A node's value (an array, or a tuple of arrays for a TensorTuple) with its floating
    arrays in float64; integer arrays (labels, indices) are kept: nothing differentiates them."""
    if isinstance(value, tuple):
        return tuple(as_float64(v) for v in value)
    value = np.asarray(value)
    return value.astype(np.float64) if value.dtype.kind == "f" else value


def weighted_sum(value, weights) -> float:
    """sum(value * weights), slot by slot for a tuple: the scalar whose gradient is checked."""
    if isinstance(value, tuple):
        return float(sum(np.sum(v * w) for v, w in zip(value, weights)))
    return float(np.sum(value * weights))


def _differences(f: Callable, value, eps: float):
    """Central differences of the scalar f(value) w.r.t. every element of ``value`` (every
    slot of a tuple); None for an integer array."""
    if isinstance(value, tuple):
        def slot(s):
            return _differences(lambda x: f(value[:s] + (x,) + value[s + 1:]), value[s], eps)

        return tuple(slot(s) for s in range(len(value)))
    if value.dtype.kind != "f":
        return None
    return central_differences(f, value, eps)


def op_adjoints(op, inputs: Sequence, out_grad, eps: float = 1e-6) -> list:
    """What ``op.gradient`` should return for input values ``inputs`` (float64 arrays, or
    tuples of them) and the output adjoint ``out_grad`` (an array, or a tuple of arrays): for
    each input i, the central differences of sum(op.compute(*inputs) * out_grad) w.r.t. input i,
    one array per input (a tuple for a tuple input; None for an integer input)."""
    inputs = list(inputs)

    def varying(i: int):
        return lambda x: weighted_sum(op.compute(*inputs[:i], x, *inputs[i + 1:]), out_grad)

    return [_differences(varying(i), x, eps) for i, x in enumerate(inputs)]


def forward_float64(order: Sequence[Value]) -> list:
    """The value of every node of ``order`` (a topological order: inputs before users),
    recomputed in float64 from the leaves' values with each op's ``compute``.

    Raises ValueError naming the op whose compute does not keep float64."""
    index = {id(v): i for i, v in enumerate(order)}
    values: list = []
    for v in order:
        if v.op is None:
            values.append(as_float64(v.realize_cached_data()))
            continue
        value = v.op.compute(*[values[index[id(x)]] for x in v.inputs])
        for a in value if isinstance(value, tuple) else (value,):
            if np.asarray(a).dtype.kind == "f" and np.asarray(a).dtype != np.float64:
                raise ValueError(
                    f"{type(v.op).__name__}.compute returned {np.asarray(a).dtype} for float64 inputs: the "
                    f"reference needs float64 throughout (compute must keep its inputs' dtype)"
                )
        values.append(value)
    return values


def node_adjoints(order: Sequence[Value], out_grad, eps: float = 1e-6) -> list:
    """The adjoint of every node of ``order`` (a topological order of a graph, ending with its
    output) for the output adjoint ``out_grad``: the central differences, in float64, of
    F = sum(output * out_grad) w.r.t. the node's value, as if the node were an input (the
    nodes that depend on it are recomputed with their ops' ``compute``, the others keep their
    values). One array per node (a tuple for a TensorTuple; None for an integer leaf).

    Independent of every ``gradient`` and of any backward pass. Costs two forward passes of
    the node's descendants per element of every node: meant for graphs of tens of nodes."""
    order = list(order)
    index = {id(v): i for i, v in enumerate(order)}
    inputs = [[index[id(x)] for x in v.inputs] for v in order]
    base = forward_float64(order)
    weights = as_float64(out_grad.realize_cached_data() if isinstance(out_grad, Value) else out_grad)
    last = len(order) - 1

    def downstream(i: int) -> list[int]:
        reached, out = {i}, []
        for k in range(i + 1, len(order)):
            if any(j in reached for j in inputs[k]):
                reached.add(k)
                out.append(k)
        return out

    def adjoint(i: int):
        later = downstream(i)

        def output_with(x) -> float:
            values = list(base)
            values[i] = x
            for k in later:
                values[k] = order[k].op.compute(*[values[j] for j in inputs[k]])
            return weighted_sum(values[last], weights)

        return _differences(output_with, base[i], eps)

    return [adjoint(i) for i in range(len(order))]
