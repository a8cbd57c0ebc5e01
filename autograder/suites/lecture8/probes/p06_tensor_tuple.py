"""Probes for 06_tensor_tuple: run the student's FusedAddScalars / fused_add_scalars on
inputs built here and report plain data (values, types as fixed words, gradients)."""
import numpy as np

import needle as ndl
from needle.autograd import Tensor, TensorTuple

from autograder.probing import need, probe


# --- helpers ----------------------------------------------------------------------------------
def _kind(value) -> str:
    """A fixed word for the type of ``value`` (never a name the student's code chose)."""
    if isinstance(value, TensorTuple):
        return "tensortuple"
    if isinstance(value, Tensor):
        return "tensor"
    if value is None:
        return "none"
    if isinstance(value, tuple):
        return "tuple"
    if isinstance(value, list):
        return "list"
    if isinstance(value, np.ndarray):
        return "ndarray"
    return "other"


def _grad_report(value):
    """The gradient as a float array if it is a Tensor, else the fixed word for its type."""
    if isinstance(value, Tensor) and not isinstance(value, TensorTuple):
        return np.asarray(value.numpy())
    return _kind(value)


def tensor(array, dtype: str = "float64") -> Tensor:
    return Tensor(np.array(array), dtype=dtype)


def const(array, dtype: str = "float64") -> Tensor:
    return Tensor(np.array(array), dtype=dtype, requires_grad=False)


def fused(ns, a: Tensor, c0: float, c1: float) -> TensorTuple:
    """The student's FusedAddScalars(c0, c1) applied to ``a``, with the forward values set here
    (a + c0, a + c1): the gradient tests (Task 6.2) then do not depend on compute (Task 6.1)."""
    op = need(ns, "FusedAddScalars")(c0, c1)
    with ndl.lazy_mode():
        t = op(a)
    x = a.realize_cached_data()
    t.cached_data = (x + c0, x + c1)
    return t


# --- graph builders: scalar losses of one input (the trusted test writes the same math in numpy)
def build_loss(ns, graph: str, x: Tensor, c0: float, c1: float, w0=None, w1=None, c2=0.0, c3=0.0):
    if graph == "product":  # L = sum(t0 * t1)
        t = fused(ns, x, c0, c1)
        return (t[0] * t[1]).sum()
    if graph == "weighted":  # L = sum(w0 * t0) + sum(w1 * t1); a missing weight: slot unused
        t = fused(ns, x, c0, c1)
        terms = []
        if w0 is not None:
            terms.append((t[0] * const(w0, x.dtype.name)).sum())
        if w1 is not None:
            terms.append((t[1] * const(w1, x.dtype.name)).sum())
        return terms[0] if len(terms) == 1 else terms[0] + terms[1]
    if graph == "reuse":  # u = t[0] used twice, t[0] indexed again, t[1] used twice
        t = fused(ns, x, c0, c1)
        u = t[0]
        return (u * u * const(w0)).sum() + (t[0] * t[1]).sum() + (t[1] * const(w1)).sum()
    if graph == "composed":  # h = x @ W, a = exp(h / 2), t = fused(a), s = fused(t[0]), log(t[1])
        h = x @ const(w1)
        a = (h * 0.5).exp()
        t = fused(ns, a, c0, c1)
        s = fused(ns, t[0], c2, c3)
        return (s[0] * s[1] * const(w0)).sum() + t[1].log().sum() + (h * h).sum()
    raise ValueError(graph)


# --- Task 6.1 probes ------------------------------------------------------------------------------
@probe("FusedAddScalars")
def compute_result(ns, a, c0: float, c1: float):
    """FusedAddScalars(c0, c1).compute(a) on a numpy array: its type, items, input untouched."""
    a = np.array(a)
    before = a.copy()
    out = need(ns, "FusedAddScalars")(c0, c1).compute(a)
    kind = _kind(out)
    items = None
    if kind in ("tuple", "list", "ndarray") and len(out) <= 8:
        items = [np.asarray(x) for x in out]
    return {
        "kind": kind,
        "len": len(out) if kind in ("tuple", "list", "ndarray") else None,
        "all_arrays": kind in ("tuple", "list") and all(isinstance(x, np.ndarray) for x in out),
        "items": items,
        "input_unchanged": bool(np.array_equal(a, before)) and a.dtype == before.dtype,
    }


@probe("fused_add_scalars", "FusedAddScalars")
def fused_result(ns, a, c0: float, c1: float):
    """fused_add_scalars(a, c0, c1) on a Tensor that requires grad: type, op, inputs, items."""
    x = Tensor(np.array(a), dtype=np.array(a).dtype.name)
    t = need(ns, "fused_add_scalars")(x, c0, c1)
    cls = need(ns, "FusedAddScalars")
    info = {"kind": _kind(t), "op_is_own": False, "input_is_a": False, "len": None, "items": None, "items_are_getitem": False}
    if isinstance(t, TensorTuple):
        info["op_is_own"] = (
            isinstance(cls, type) and isinstance(t.op, cls) and cls is not ndl.ops.FusedAddScalars
        )
        info["input_is_a"] = len(t.inputs) == 1 and t.inputs[0] is x
        info["len"] = len(t)
        if len(t) <= 8:
            items = [t[i] for i in range(len(t))]  # indexing: TupleGetItem nodes
            info["items"] = [np.asarray(v.numpy()) for v in items]
            info["items_are_getitem"] = all(isinstance(v.op, ndl.ops.TupleGetItem) for v in items)
    return info


# --- Task 6.2 probes ------------------------------------------------------------------------------
@probe("FusedAddScalars")
def direct_gradient(ns, a, g0, g1, c0: float, c1: float):
    """The op's gradient called directly with out_grad = make_tuple(g0, g1) (one entry: a's)."""
    x = tensor(a)
    t = fused(ns, x, c0, c1)
    out_grad = ndl.ops.make_tuple(const(g0), const(g1))
    raw = t.op.gradient(out_grad, t)
    # needle also accepts a 1-tuple (one entry per input); a bare Tensor is what Task 6.2 asks
    if isinstance(raw, (tuple, list)) and len(raw) == 1 and isinstance(raw[0], Tensor):
        raw = raw[0]
    return _grad_report(raw)


@probe("FusedAddScalars")
def loss_gradient(ns, graph: str, x, c0: float, c1: float, dtype: str = "float64", **kwargs):
    """x.grad after build_loss(...).backward(), as an array (or a word for its type)."""
    xt = tensor(x, dtype)
    loss = build_loss(ns, graph, xt, c0, c1, **kwargs)
    loss.backward()
    return _grad_report(xt.grad)


@probe("FusedAddScalars")
def second_order(ns, x, c0: float, c1: float):
    """g = dL/dx with create_graph=True for L = sum(t0 * t1); then d(sum g)/dx."""
    xt = tensor(x)
    build_loss(ns, "product", xt, c0, c1).backward(create_graph=True)
    g = xt.grad
    if not isinstance(g, Tensor) or isinstance(g, TensorTuple):
        return _kind(g)
    if not g.requires_grad or g.op is None:
        return "detached"
    xt.grad = None
    g.sum().backward()
    return _grad_report(xt.grad)
