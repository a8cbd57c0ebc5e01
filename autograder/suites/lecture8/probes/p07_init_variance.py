"""Probes for 07_init_variance: draws from the student's kaiming_normal / kaiming_uniform, and
activation_stds run with init functions built here (identity, naive N(0, 1), needle's Kaiming)."""
import numpy as np

import needle as ndl

from autograder.probing import need, probe


# --- input builders (also used by the trusted side) ----------------------------------------
def identity_init(c: float):
    """init_fn returning c * I: then x_l = relu(c x_{l-1}), a deterministic layer."""

    def init_fn(fan_in, fan_out):
        return ndl.Tensor(c * np.eye(fan_in, fan_out, dtype=np.float32), requires_grad=False)

    return init_fn


def naive_init(fan_in, fan_out):
    """N(0, 1) weights, whatever the fan-in."""
    return ndl.init.randn(fan_in, fan_out)


def seeded_init(c: float):
    """init_fn drawing c * N(0, 1) weights from numpy's global generator (float32): with the seed
    known, the trusted side can redo the whole computation."""

    def init_fn(fan_in, fan_out):
        return ndl.Tensor(c * np.random.randn(fan_in, fan_out), dtype="float32", requires_grad=False)

    return init_fn


INITS = {
    "naive": lambda c: naive_init,
    "seeded": seeded_init,
    "kaiming_normal_ref": lambda c: ndl.init.kaiming_normal,
    "kaiming_uniform_ref": lambda c: ndl.init.kaiming_uniform,
    "identity": identity_init,
}


def first_input(seed: int, n_samples: int, width: int) -> np.ndarray:
    """The x_0 that activation_stds draws first after np.random.seed(seed) (float32)."""
    return np.random.RandomState(seed).randn(n_samples, width).astype(np.float32)


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
    """Two calls in a row, then the first again after re-seeding."""
    fn = need(ns, name)
    np.random.seed(seed)
    first = _report(fn(fan_in, fan_out))
    second = _report(fn(fan_in, fan_out))
    np.random.seed(seed)
    again = _report(fn(fan_in, fan_out))
    return {"first": first, "second": second, "again": again}


@probe("activation_stds")
def stds(ns, init: str, depth: int, width: int, n_samples: int, seed: int, c: float = 1.0):
    base = INITS[init](c)
    calls, weight_stds = [], []

    def init_fn(fan_in, fan_out):
        calls.append([int(fan_in), int(fan_out)])
        w = base(fan_in, fan_out)
        weight_stds.append(float(np.std(w.numpy())))
        return w

    np.random.seed(seed)
    out = need(ns, "activation_stds")(init_fn, depth, width, n_samples)
    is_list = isinstance(out, (list, tuple))
    values = [float(v) if _is_number(v) else None for v in out] if is_list else None
    return {"is_list": is_list, "values": values, "calls": calls, "weight_stds": weight_stds}
