"""Probes for 07_init_variance: draws from the student's kaiming_normal / kaiming_uniform, and
activation_stds run with init functions built here (c * I, or c * N(0, 1) from numpy's global
generator),
whose results the trusted side recomputes from the seed it chose."""
import numpy as np

import needle as ndl

from autograder.probing import need, probe, values_digest


def identity_init(c: float):
    """init_fn returning c * I: then x_l = relu(c x_{l-1}), a layer without draws."""

    def init_fn(fan_in, fan_out):
        return ndl.Tensor(c * np.eye(fan_in, fan_out, dtype=np.float32), requires_grad=False)

    return init_fn


def scaled_init(c: float):
    """init_fn drawing c * N(0, 1) weights (float32) from numpy's global generator: with the seed
    known, the trusted side redoes the whole computation (c = 1: the naive init; c = sqrt(2 /
    width): Kaiming's)."""

    def init_fn(fan_in, fan_out):
        return ndl.Tensor(c * np.random.randn(fan_in, fan_out), dtype="float32", requires_grad=False)

    return init_fn


INITS = {"identity": identity_init, "scaled": scaled_init}


def _report(w) -> dict:
    """What a weight init returned: its kind, dtype, shape and values (as plain data)."""
    is_tensor = isinstance(w, ndl.Tensor)
    arr = np.asarray(w.numpy() if is_tensor else w)
    if arr.dtype.kind not in "biuf":  # None or other objects: no values to report
        return {"is_tensor": False, "dtype": "", "shape": [], "values": np.zeros(0)}
    if arr.dtype not in (np.float32, np.float64):
        arr = arr.astype(np.float64)
    return {"is_tensor": is_tensor, "dtype": str(arr.dtype), "shape": [int(n) for n in arr.shape], "values": arr}


def _is_number(v) -> bool:
    return isinstance(v, (int, float, np.integer, np.floating)) and not isinstance(v, (bool, np.bool_))


# --- probes -------------------------------------------------------------------------------
@probe("kaiming_normal", "kaiming_uniform")
def draw(ns, name: str, fan_in: int, fan_out: int, seed: int):
    np.random.seed(seed)
    return _report(need(ns, name)(fan_in, fan_out))


@probe("kaiming_normal", "kaiming_uniform")
def draw_twice_and_reseed(ns, name: str, fan_in: int, fan_out: int, seed: int):
    """Two calls in a row, then the first again after re-seeding (the first as a digest)."""
    fn = need(ns, name)
    np.random.seed(seed)
    first = values_digest(_report(fn(fan_in, fan_out))["values"])  # a string: the values are not kept
    second = _report(fn(fan_in, fan_out))  # (a later call could copy them from this frame)
    np.random.seed(seed)
    again = _report(fn(fan_in, fan_out))
    return {"first": first, "second": second, "again": again}


@probe("activation_stds")
def stds(ns, init: str, depth: int, width: int, n_samples: int, seed: int, c: float = 1.0):
    """activation_stds(init_fn, depth, width, n_samples) after np.random.seed(seed), with an
    init_fn of INITS: whether it returned a list, each value as a float (None for one that is
    not a number), and whether each was a Python float."""
    np.random.seed(seed)
    out = need(ns, "activation_stds")(INITS[init](c), depth, width, n_samples)
    items = list(out) if isinstance(out, (list, tuple)) else []
    return {"is_list": isinstance(out, list), "values": [float(v) if _is_number(v) else None for v in items],
            "floats": all(isinstance(v, float) for v in items)}
