"""Probes for 02_detach: tensors built with needle, handed to the student's detach / sgd_update /
train_fixed. A probe returns what the student's code returned or left behind, as plain data:
values as arrays, ops as class names, identities as bools (the only facts that can be seen only
from inside); the trusted side holds every expected value. Task 2.3's leak is judged by the
memory the grader measures from outside the worker, never by a count kept in here."""
import numpy as np

import needle as ndl
from autograder.probing import need, probe


# --- input builders (also used by the trusted side to compute references) -----------------
def array(shape, seed: int, dtype: str = "float32", low: float = -2.0, high: float = 2.0) -> np.ndarray:
    """Deterministic values of ``shape`` and ``dtype``."""
    return np.random.default_rng(seed).uniform(low, high, size=tuple(shape)).astype(dtype)


def make_tensor(kind: str, shape, seed: int, dtype: str = "float32"):
    """(t, x): the tensor handed to detach and the leaf it was built from.

    leaf: x itself (requires grad); const: a leaf that needs no grad; nonleaf: t = 3x + 1,
    an op result that requires grad (its graph: AddScalar <- MulScalar <- x)."""
    x = ndl.Tensor(array(shape, seed, dtype), dtype=dtype, requires_grad=(kind != "const"))
    if kind in ("leaf", "const"):
        return x, x
    return x * 3.0 + 1.0, x


def make_grad(kind: str, shape, seed: int, dtype: str = "float32"):
    """The gradient handed to sgd_update. const: a plain leaf that needs no grad; leaf: a leaf
    that requires grad; nonleaf: 2 * x for x requiring grad (an op result with a graph)."""
    g = array(shape, seed, dtype, low=-1.0, high=1.0)
    if kind == "const":
        return ndl.Tensor(g, dtype=dtype, requires_grad=False)
    if kind == "leaf":
        return ndl.Tensor(g, dtype=dtype, requires_grad=True)
    return ndl.Tensor(g / 2, dtype=dtype, requires_grad=True) * 2.0


def grad_values(kind: str, shape, seed: int, dtype: str = "float32") -> np.ndarray:
    """The values of make_grad(kind, ...), as the trusted side recomputes them."""
    return make_grad(kind, shape, seed, dtype).numpy().copy()


class _Model(ndl.nn.Module):
    """A module holding one Parameter, as an optimizer sees it through parameters()."""

    def __init__(self, values: np.ndarray):
        super().__init__()
        self.weight = ndl.nn.Parameter(values)


def _value(t):
    """t's values as a numpy array copy, or None if t is not a Tensor with an array."""
    if isinstance(t, ndl.Tensor) and isinstance(t.cached_data, np.ndarray):
        return t.cached_data.copy()
    return None


def _leaf_facts(t) -> dict:
    """What a tensor is as a node: its op's class name (None for a leaf), how many inputs, its
    requires_grad (None when not a bool)."""
    op, inputs, rg = t.op, t.inputs, t.requires_grad
    return {
        "op": None if op is None else type(op).__name__,
        "inputs": len(inputs) if isinstance(inputs, tuple) else -1,
        "requires_grad": rg if type(rg) is bool else None,
    }


# --- Task 2.1: detach ---------------------------------------------------------------------
FIELDS = ("op", "inputs", "cached_data", "requires_grad", "grad")


def _unset_fields(d) -> list:
    """The node fields a Tensor made with Tensor.__new__ was never given (reading them raises)."""
    unset = []
    for name in FIELDS:
        try:
            getattr(d, name)
        except AttributeError:
            unset.append(name)
    return unset


def _detached(ns, t):
    """(detach(t), whether it is a Tensor, the facts to return at once when it leaves fields unset, else None)."""
    d = need(ns, "detach")(t)
    is_tensor = isinstance(d, ndl.Tensor)
    unset = _unset_fields(d) if is_tensor else []
    return d, is_tensor, ({"is_tensor": True, "same_object": d is t, "unset": unset} if unset else None)


@probe("detach")
def detach_facts(ns, kind: str, shape, seed: int, dtype: str = "float32"):
    """detach(t) for t built here. A leaf t has a .grad first (from a backward through 2 t), so
    that a detach carrying t's .grad over shows."""
    t, x = make_tensor(kind, shape, seed, dtype)
    if kind == "leaf":
        (t * 2.0).sum().backward()  # t.grad = 2 everywhere
    array_before = t.cached_data
    op_before, inputs_before = t.op, t.inputs
    d, is_tensor, unset = _detached(ns, t)
    if unset:
        return unset
    facts = {
        "is_tensor": is_tensor,
        "same_object": d is t,
        "shares": is_tensor and d.cached_data is array_before,
        "value": _value(d) if is_tensor else None,
        "has_grad": is_tensor and d.grad is not None,
        "t_op_same": t.op is op_before,
        "t_inputs_same": isinstance(t.inputs, tuple) and len(t.inputs) == len(inputs_before)
        and all(a is b for a, b in zip(t.inputs, inputs_before)),
        "t_requires_grad": t.requires_grad if type(t.requires_grad) is bool else None,
        "t_array_same": t.cached_data is array_before,
        "t_value": _value(t),
    }
    if is_tensor:
        facts |= _leaf_facts(d)
    # The original still backpropagates into its leaf: d(sum t)/dx = 1 (leaf) or 3 (3x + 1).
    facts["x_grad"] = None
    if kind != "const":
        x.grad = None
        try:
            t.sum().backward()
            facts["x_grad"] = _value(x.grad)
        except Exception:  # the student's detach broke t's graph
            pass
    return facts


@probe("detach")
def detach_lazy(ns, shape, seed: int):
    """detach of a non-leaf built in lazy mode (its cached_data not computed yet)."""
    with ndl.lazy_mode():
        t, _ = make_tensor("nonleaf", shape, seed)
        d, is_tensor, unset = _detached(ns, t)
        if unset:
            return unset
        facts = {
            "is_tensor": is_tensor,
            "same_object": d is t,
            "has_array": is_tensor and isinstance(d.cached_data, np.ndarray),
            "shares": is_tensor and d.cached_data is not None and d.cached_data is t.cached_data,
            "value": _value(d) if is_tensor else None,
        }
        if is_tensor:
            facts |= _leaf_facts(d)
        return facts


@probe("detach")
def detach_in_expressions(ns, kind: str, shape, seed: int, dtype: str = "float32"):
    """detach(t) used inside expressions: x.grad after backward of sum(detach(t) * t), and
    whether detach(t) * 3 + 1 records a graph."""
    t, x = make_tensor(kind, shape, seed, dtype)
    d = need(ns, "detach")(t)
    if not isinstance(d, ndl.Tensor) or d is t:  # the test stops at what is wrong before backward
        return {"is_tensor": isinstance(d, ndl.Tensor), "same_object": d is t}
    unset = _unset_fields(d)
    if unset:
        return {"is_tensor": True, "same_object": False, "unset": unset}
    facts = {"is_tensor": True, "same_object": False, "t_value": _value(t),
             "t_requires_grad": t.requires_grad if type(t.requires_grad) is bool else None,
             "records_graph": (d * 3.0 + 1.0).op is not None, "x_grad": None} | _leaf_facts(d)
    if facts["t_requires_grad"] is not True or facts["op"] is not None:
        return facts  # named by the test; backward through a t cut loose would only raise
    x.grad = None
    (d * t).sum().backward()
    if x.grad is not None:
        facts["x_grad"] = _value(x.grad)
    return facts


# --- Task 2.2: sgd_update -----------------------------------------------------------------
def _update_facts(w, w_id: int, result) -> dict:
    return {
        "value_error": False,
        "returned_none": result is None,
        "value": _value(w),
        "same_object": id(w) == w_id,
    } | _leaf_facts(w)


def _grad_after(grad, grad_array) -> dict:
    """grad's values after the call, and the array grad held before the call as it is now."""
    return {"grad_value": _value(grad), "grad_array_now": grad_array.copy(), "grad_node": _leaf_facts(grad)}


def _setter_refused(exc: ValueError) -> dict:
    """The reply for the .data setter refusing a value of another shape or dtype; any other
    ValueError (needle's ScalarError for a Tensor minus an array, ...) goes on to its own hint."""
    if str(exc).startswith("cannot set Tensor.data"):
        return {"value_error": True}
    raise exc


@probe("sgd_update")
def update_once(ns, shape, seed: int, lr: float, dtype: str = "float32", grad_kind: str = "const"):
    w = ndl.Tensor(array(shape, seed, dtype), dtype=dtype)
    grad = make_grad(grad_kind, shape, seed + 1, dtype)
    grad_array = grad.cached_data
    w_id = id(w)
    update = need(ns, "sgd_update")
    try:
        result = update(w, grad, lr)
    except ValueError as exc:
        return _setter_refused(exc)
    return _update_facts(w, w_id, result) | _grad_after(grad, grad_array)


@probe("sgd_update")
def update_references(ns, shape, seed: int, lr: float):
    """Update a Module's Parameter through the list parameters() returned, as an optimizer does."""
    model = _Model(array(shape, seed))
    params = model.parameters()
    by_name = dict(model.named_parameters())
    w = params[0]
    w_id = id(w)
    grad = make_grad("const", shape, seed + 1)
    grad_array = grad.cached_data
    update = need(ns, "sgd_update")
    try:
        result = update(params[0], grad, lr)
    except ValueError as exc:
        return _setter_refused(exc)
    return _update_facts(w, w_id, result) | _grad_after(grad, grad_array) | {
        "list_same_object": params[0] is w and id(params[0]) == w_id,
        "dict_same_object": by_name["weight"] is w,
        "model_same_object": model.weight is w and model.parameters()[0] is w,
        "list_value": _value(params[0]),
        "dict_value": _value(by_name["weight"]),
        "model_value": _value(model.weight),
    }


@probe("sgd_update")
def update_many(ns, steps: int, shape, seed: int, lr: float, grad_kind: str = "const"):
    w = ndl.Tensor(array(shape, seed))
    grad = make_grad(grad_kind, shape, seed + 1)
    grad_array = grad.cached_data
    holder = {"w": w}
    w_id = id(w)
    update = need(ns, "sgd_update")
    result = None
    try:
        for _ in range(steps):
            result = update(w, grad, lr)
    except ValueError as exc:
        return _setter_refused(exc)
    return _update_facts(w, w_id, result) | _grad_after(grad, grad_array) | {"held": holder["w"] is w}


# --- Task 2.3: train_fixed ------------------------------------------------------------------
def make_problem(seed: int, n_batches: int, batch_size: int, features: int, hidden: int = 0):
    """(model, batches): nn.Linear(features, 1) with fixed initial weights (or, with ``hidden``,
    Linear(features, hidden), ReLU, Linear(hidden, 1): a model whose every batch makes arrays of
    batch_size x hidden floats), and a list of (x, y) batches of a noisy linear target
    (constants: they need no gradient)."""
    rng = np.random.default_rng(seed)
    w_true = rng.normal(size=(features, 1))
    batches = []
    for _ in range(n_batches):
        x = rng.normal(size=(batch_size, features))
        y = x @ w_true + 0.5 + 0.1 * rng.normal(size=(batch_size, 1))
        batches.append((ndl.Tensor(x, requires_grad=False), ndl.Tensor(y, requires_grad=False)))
    if not hidden:
        model = ndl.nn.Linear(features, 1)
        model.weight.data = ndl.Tensor(rng.uniform(-0.5, 0.5, size=(features, 1)), requires_grad=False)
        model.bias.data = ndl.Tensor(np.zeros((1, 1)), requires_grad=False)
        return model, batches
    first, last = ndl.nn.Linear(features, hidden), ndl.nn.Linear(hidden, 1)
    first.weight.data = ndl.Tensor(rng.uniform(-0.5, 0.5, size=(features, hidden)), requires_grad=False)
    first.bias.data = ndl.Tensor(rng.uniform(0.0, 0.1, size=(1, hidden)), requires_grad=False)
    last.weight.data = ndl.Tensor(rng.uniform(-0.5, 0.5, size=(hidden, 1)) / np.sqrt(hidden), requires_grad=False)
    last.bias.data = ndl.Tensor(np.zeros((1, 1)), requires_grad=False)
    return ndl.nn.Sequential(first, ndl.nn.ReLU(), last), batches


_NO_GRAPH = "backward() called on a tensor that does not require grad"


def _entry(v):
    """One entry of the returned history as (kind, float or None, holds a graph), without
    running any method of an object the student's code defined."""
    kind = type(v)
    if kind is float or kind is np.float64:  # np.float64 is a Python float (a subclass)
        return "float", float(v), False
    if kind is int:
        return "int", float(v), False
    if kind in (np.float32, np.float16):
        return "numpy", float(v), False
    if kind is np.ndarray:
        return "numpy", float(v.reshape(-1)[0]) if v.size == 1 and v.dtype.kind in "fiu" else None, False
    if kind is ndl.Tensor:
        a = np.asarray(v.realize_cached_data())  # a 0-d result may be held as a numpy scalar
        ok = a.size == 1 and a.dtype.kind in "fiu"
        return "tensor", float(a.reshape(-1)[0]) if ok else None, v.op is not None
    return "other", None, False


@probe("train_fixed")
def train(ns, seed: int, n_batches: int, batch_size: int, features: int, epochs: int, lr: float, hidden: int = 0):
    """train_fixed on a problem built here: what it returned, and the model's weights after."""
    model, batches = make_problem(seed, n_batches, batch_size, features, hidden)
    start = [p.realize_cached_data().copy() for p in model.parameters()]
    fn = need(ns, "train_fixed")
    try:
        history = fn(model, batches, epochs, lr)
    except RuntimeError as exc:  # needle's own refusal: backward() on a loss that has no graph
        if type(exc) is RuntimeError and str(exc).startswith(_NO_GRAPH):
            return {"backward_without_graph": True}
        raise
    entries = [_entry(v) for v in history] if type(history) in (list, tuple) else []
    now = [p.realize_cached_data() for p in model.parameters()]
    return {
        "backward_without_graph": False,
        "is_list": type(history) is list,
        "length": len(entries),
        "kinds": [k for k, _, _ in entries],
        "values": [x for _, x, _ in entries],
        "graphs": [g for _, _, g in entries],
        "trained": any(not np.array_equal(a, b) for a, b in zip(start, now)),
        "weights": [np.array(a, dtype=np.float64) for a in now],
    }
