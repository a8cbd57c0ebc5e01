"""Probes for 06_tensor_tuple: run the student's FusedAddScalars / fused_add_scalars (Tasks 6.1,
6.2) and Split / split (Task 6.3) on inputs built here and report plain data: values, types as
fixed words, gradients, and what each call of the student's ``gradient`` received and returned.
No expected value lives here; the trusted side judges."""
import collections.abc

import numpy as np

import needle as ndl
from needle.autograd import Tensor, TensorTuple
from coursekit.hints import classify

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
    if isinstance(value, collections.abc.Iterator):  # a generator expression, map(...): consumed once, no len
        return "iterator"
    return "other"


def _grad_report(value):
    """A gradient as a float array if it is a Tensor, else the fixed word for its type."""
    if isinstance(value, Tensor) and not isinstance(value, TensorTuple):
        return np.asarray(value.numpy())
    return _kind(value)


def _unwrap_one(raw):
    """needle also accepts a 1-tuple (one entry per input); a bare Tensor is what the tasks ask."""
    if isinstance(raw, (tuple, list)) and len(raw) == 1 and isinstance(raw[0], Tensor):
        return raw[0]
    return raw


def _needle_error(exc: ValueError) -> str:
    """A fixed word for the ValueErrors needle raises about a gradient (else ""). One raised on a
    line of the student's (an op called there) is raised again: the grader's hint then shows that
    line with the same cause."""
    if classify(exc)["where"] is not None:
        raise exc
    text = str(exc)
    if "adjoint" in text and "per input" in text:
        return "adjoint_count"  # Op.gradient_as_tuple: not one adjoint per input
    if "dtypes" in text and "differ" in text:
        return "dtype_mismatch"  # an element-wise op on float32 and float64
    if "shapes" in text and "differ" in text:
        return "shape_mismatch"  # an element-wise op on two shapes (needle never broadcasts)
    if "cannot broadcast" in text:
        return "broadcast_error"  # broadcast_to to a shape the input cannot be broadcast to
    if "cannot reshape" in text:
        return "reshape_error"  # reshape to a shape with another number of elements
    return ""


def _numeric(x) -> bool:
    """A numeric numpy array or scalar: what compute's outputs must be (a Tensor is not)."""
    return isinstance(x, (np.ndarray, np.generic)) and np.asarray(x).dtype.kind in "biuf"


def _tuple_items(value) -> str:
    """What a Python tuple or list holds: "tensors", "arrays" or "other"."""
    if all(isinstance(v, Tensor) for v in value):
        return "tensors"
    if all(isinstance(v, (np.ndarray, np.generic)) for v in value):
        return "arrays"
    return "other"


def _record_calls(op, calls: list, consts: tuple = ()) -> None:
    """Make ``op`` (an instance of the student's class) record, at each call of its gradient,
    the slot adjoints it received and what it returned (and the op's constants, ``consts``, as
    this probe gave them: the trusted side reads a gradient scaled by them)."""
    student_gradient = op.gradient

    def recorded(out_grad, node):
        result = student_gradient(out_grad, node)
        slots = out_grad.realize_cached_data() if isinstance(out_grad, TensorTuple) else ()
        calls.append({"slots": [np.array(s) for s in slots], "out": _grad_report(_unwrap_one(result)),
                      "consts": list(consts)})
        return result

    try:
        op.gradient = recorded
    except (AttributeError, TypeError):  # a class with __slots__: nothing recorded
        pass


def _backward(loss: Tensor, calls: list, **kwargs) -> str:
    """loss.backward(...); "" or a word: the ValueError needle raised about a gradient, or
    "raised_after_gradient" when the student's gradient had returned before the failure (its
    recorded results then say what went wrong)."""
    try:
        loss.backward(**kwargs)
    except ValueError as exc:
        word = _needle_error(exc)
        if word:
            return word
        if not calls:
            raise
        return "raised_after_gradient"
    except Exception:
        if not calls:
            raise
        return "raised_after_gradient"
    return ""


def tensor(array, dtype: str = "float64") -> Tensor:
    return Tensor(np.array(array), dtype=dtype)


def const(array, dtype: str = "float64") -> Tensor:
    return Tensor(np.array(array), dtype=dtype, requires_grad=False)


def fused(ns, a: Tensor, c0: float, c1: float, calls: list | None = None) -> TensorTuple:
    """The student's FusedAddScalars(c0, c1) applied to ``a``, with the forward values set here
    (a + c0, a + c1): the gradient tests (Task 6.2) then do not depend on compute (Task 6.1)."""
    op = need(ns, "FusedAddScalars")(c0, c1)
    if calls is not None:
        _record_calls(op, calls, (float(c0), float(c1)))
    with ndl.lazy_mode():
        t = op(a)
    x = a.realize_cached_data()
    t.cached_data = (x + x.dtype.type(c0), x + x.dtype.type(c1))
    return t


def slices(x: np.ndarray, axis: int) -> tuple:
    """The slices of ``x`` along ``axis`` (copies, that axis removed): the inputs Split's
    gradient tests give its node, so that they do not depend on compute."""
    return tuple(np.take(x, i, axis=axis) for i in range(x.shape[axis]))


def split_node(ns, a: Tensor, axis: int, calls: list | None = None) -> TensorTuple:
    """The student's Split(axis) applied to ``a``, with the forward values (the slices) set here."""
    op = need(ns, "Split")(axis)
    if calls is not None:
        _record_calls(op, calls)
    with ndl.lazy_mode():
        t = op(a)
    t.cached_data = slices(a.realize_cached_data(), axis)
    return t


# --- graph builders: scalar losses of one input (the trusted test writes the same math in numpy)
def build_loss(ns, graph: str, x: Tensor, c0: float, c1: float, w0=None, w1=None, c2=0.0, c3=0.0, calls=None):
    dt = x.dtype.name
    if graph == "product":  # L = sum(t0 * t1)
        t = fused(ns, x, c0, c1, calls)
        return (t[0] * t[1]).sum()
    if graph == "weighted":  # L = sum(w0 * t0) + sum(w1 * t1); a missing weight: slot unused
        t = fused(ns, x, c0, c1, calls)
        terms = []
        if w0 is not None:
            terms.append((t[0] * const(w0, dt)).sum())
        if w1 is not None:
            terms.append((t[1] * const(w1, dt)).sum())
        return terms[0] if len(terms) == 1 else terms[0] + terms[1]
    if graph == "reuse":  # u = t[0] used twice, t[0] indexed again, t[1] used twice
        t = fused(ns, x, c0, c1, calls)
        u = t[0]
        return (u * u * const(w0)).sum() + (t[0] * t[1]).sum() + (t[1] * const(w1)).sum()
    if graph == "composed":  # h = x @ W, a = exp(h / 2), t = fused(a), s = fused(t[0]), log(t[1])
        h = x @ const(w1)
        a = (h * 0.5).exp()
        t = fused(ns, a, c0, c1, calls)
        s = fused(ns, t[0], c2, c3, calls)
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
    if kind in ("tuple", "list", "ndarray") and len(out) <= 8 and all(_numeric(x) for x in out):
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
    before = x.numpy().copy()
    t = need(ns, "fused_add_scalars")(x, c0, c1)
    cls = need(ns, "FusedAddScalars")
    info = {"kind": _kind(t), "op_is_own": False, "op_is_make_tuple": False, "input_is_a": False,
            "cached_kind": None, "len": None, "items": None, "items_are_getitem": False,
            "tuple_items": _tuple_items(t) if isinstance(t, (tuple, list)) else None,
            "input_unchanged": bool(np.array_equal(x.numpy(), before))}
    if isinstance(t, TensorTuple):
        info["op_is_own"] = isinstance(cls, type) and isinstance(t.op, cls) and cls is not ndl.ops.FusedAddScalars
        info["op_is_make_tuple"] = isinstance(t.op, ndl.ops.MakeTensorTuple)
        info["input_is_a"] = len(t.inputs) == 1 and t.inputs[0] is x
        info["cached_kind"] = _kind(t.realize_cached_data())
        if info["cached_kind"] == "iterator":  # compute's value has no len and no items
            return info
        info["len"] = len(t)
        if len(t) <= 8:
            items = [t[i] for i in range(len(t))]  # indexing: TupleGetItem nodes
            values = [v.numpy() for v in items]
            info["items"] = [np.asarray(v) for v in values] if all(_numeric(v) for v in values) else None
            info["items_not_arrays"] = info["items"] is None  # compute gave something else (Tensors)
            info["items_are_getitem"] = all(isinstance(v.op, ndl.ops.TupleGetItem) for v in items)
    elif isinstance(t, (tuple, list)) and len(t) <= 8 and all(isinstance(v, Tensor) for v in t):
        info["items"] = [np.asarray(v.numpy()) for v in t]  # a Python tuple of Tensors
    return info


# --- Task 6.2 probes ------------------------------------------------------------------------------
@probe("FusedAddScalars")
def direct_gradient(ns, a, g0, g1, c0: float, c1: float):
    """The op's gradient called directly with out_grad = make_tuple(g0, g1) (one entry: a's)."""
    x = tensor(a)
    t = fused(ns, x, c0, c1)
    out_grad = ndl.ops.make_tuple(const(g0), const(g1))
    try:
        raw = t.op.gradient(out_grad, t)
    except ValueError as exc:
        word = _needle_error(exc)
        if not word:
            raise
        return word
    return _grad_report(_unwrap_one(raw))


@probe("FusedAddScalars")
def loss_gradient(ns, graph: str, x, c0: float, c1: float, dtype: str = "float64", **kwargs):
    """x.grad after build_loss(...).backward(), as an array (or a word for its type), with every
    call of the student's gradient (slot adjoints received, result returned)."""
    xt = tensor(x, dtype)
    calls: list = []
    loss = build_loss(ns, graph, xt, c0, c1, calls=calls, **kwargs)
    error = _backward(loss, calls)
    return {"grad": _grad_report(xt.grad) if not error else error, "calls": calls}


@probe("FusedAddScalars")
def second_order(ns, x, c0: float, c1: float):
    """g = dL/dx with create_graph=True for L = sum(t0 * t1); then d(sum g)/dx."""
    xt = tensor(x)
    calls: list = []
    error = _backward(build_loss(ns, "product", xt, c0, c1, calls=calls), calls, create_graph=True)
    g = xt.grad
    if error:
        return {"calls": calls, "result": error}
    if not isinstance(g, Tensor) or isinstance(g, TensorTuple):
        return {"calls": calls, "result": _kind(g)}
    if not g.requires_grad or g.op is None:
        return {"calls": calls, "result": "detached"}
    xt.grad = None
    error = _backward(g.sum(), calls)
    return {"calls": calls, "result": error or _grad_report(xt.grad)}


# --- Task 6.3 probes ------------------------------------------------------------------------------
def _items(out):
    """compute's result as plain data: each item an array, or None where it is not one."""
    if not isinstance(out, (tuple, list)) or len(out) > 64:
        return None
    return [np.asarray(x) if isinstance(x, np.ndarray) and x.dtype.kind in "biuf" else None for x in out]


@probe("Split")
def split_compute(ns, a, axis: int, catch: bool = False):
    """Split(axis).compute(a) on a numpy array: its type, items, input untouched. With ``catch``,
    an exception becomes the word "raised" (the negative-axis test words its own message)."""
    a = np.array(a)
    before = a.copy()
    split_op = need(ns, "Split")(axis)
    try:
        out = split_op.compute(a)
    except (ValueError, IndexError, TypeError) as exc:  # numpy's AxisError is a ValueError and an IndexError
        if type(exc) is IndexError:
            return {"kind": "index_error", "items": None, "input_unchanged": True}
        if catch:
            return {"kind": "raised", "items": None, "input_unchanged": True}
        raise
    return {"kind": _kind(out), "items": _items(out),
            "input_unchanged": bool(np.array_equal(a, before)) and a.dtype == before.dtype}


@probe("split", "Split")
def split_function(ns, a, axis: int):
    """split(a, axis) on a Tensor that requires grad: type, op, inputs, items by indexing."""
    x = Tensor(np.array(a), dtype=np.array(a).dtype.name)
    split_fn, cls = need(ns, "split"), need(ns, "Split")
    try:
        t = split_fn(x, axis)
    except TypeError:  # e.g. numpy called on the Tensor: compute used directly instead of the op
        return {"kind": "type_error", "op_is_own": False, "input_is_a": False, "items": None, "cached_kind": None,
                "tuple_items": None}
    info = {"kind": _kind(t), "op_is_own": False, "input_is_a": False, "items": None, "cached_kind": None,
            "tuple_items": _tuple_items(t) if isinstance(t, (tuple, list)) else None}
    if isinstance(t, TensorTuple):
        info["op_is_own"] = isinstance(cls, type) and isinstance(t.op, cls)
        info["input_is_a"] = len(t.inputs) == 1 and t.inputs[0] is x
        data = t.realize_cached_data()
        info["cached_kind"] = _kind(data)
        if isinstance(data, tuple) and len(data) <= 64 and all(isinstance(v, np.ndarray) for v in data):
            info["items"] = [np.asarray(t[i].numpy()) for i in range(len(t))]  # TupleGetItem nodes
    elif isinstance(t, (tuple, list)) and len(t) <= 64 and all(isinstance(v, Tensor) for v in t):
        info["items"] = [np.asarray(v.numpy()) for v in t]  # a Python tuple of Tensors
    return info


@probe("Split")
def split_direct_gradient(ns, a, axis: int, slots: list, catch: bool = False):
    """Split(axis).gradient called directly with out_grad = make_tuple(*slots)."""
    x = tensor(a)
    t = split_node(ns, x, axis)
    out_grad = ndl.ops.make_tuple(*[const(s) for s in slots])
    try:
        raw = t.op.gradient(out_grad, t)
    except ValueError as exc:
        word = _needle_error(exc)
        if word:
            return word
        if not catch:
            raise
        return "raised"
    except (IndexError, TypeError):
        if not catch:
            raise
        return "raised"
    return _grad_report(_unwrap_one(raw))


def build_split_loss(ns, graph: str, x: Tensor, axis: int, calls: list, w0=None, w1=None, slot: int = 0):
    dt = x.dtype.name
    if graph == "product":  # L = sum(t0 * t1)
        t = split_node(ns, x, axis, calls)
        return (t[0] * t[1]).sum()
    if graph == "one_slot":  # L = sum(w0 * t[slot]): every other slot unused
        t = split_node(ns, x, axis, calls)
        return (t[slot] * const(w0, dt)).sum()
    if graph == "reuse":  # slot 2 used three times, slot 1 once, slot 0 twice
        t = split_node(ns, x, axis, calls)
        return (t[0] * t[2] * const(w0, dt)).sum() + (t[2] * t[2]).sum() + (t[1] * t[0]).sum() + t[2].sum()
    if graph == "composed":  # h = exp(x / 2); t = split(h, 1); u = split(t[2], 0)
        h = (x * 0.5).exp()
        t = split_node(ns, h, axis, calls)
        u = split_node(ns, t[2], 0, calls)
        return (t[0] * t[1] * const(w0, dt)).sum() + t[2].log().sum() + (u[0] * u[1]).sum() + (u[1] * const(w1, dt)).sum()
    raise ValueError(graph)


@probe("Split")
def split_loss_gradient(ns, graph: str, x, axis: int, dtype: str = "float64", **kwargs):
    """x.grad after build_split_loss(...).backward(), with every call of the student's gradient."""
    xt = tensor(x, dtype)
    calls: list = []
    error = _backward(build_split_loss(ns, graph, xt, axis, calls, **kwargs), calls)
    return {"grad": error or _grad_report(xt.grad), "calls": calls}


@probe("Split")
def split_second_order(ns, x, axis: int, v):
    """g = dL/dx with create_graph=True for L = sum(t0 * t1); then d(sum(g * v))/dx."""
    xt = tensor(x)
    calls: list = []
    error = _backward(build_split_loss(ns, "product", xt, axis, calls), calls, create_graph=True)
    g = xt.grad
    if error:
        return {"calls": calls, "result": error}
    if not isinstance(g, Tensor) or isinstance(g, TensorTuple):
        return {"calls": calls, "result": _kind(g)}
    if g.shape != xt.shape:
        return {"calls": calls, "result": "wrong_shape"}
    if not g.requires_grad or g.op is None:
        return {"calls": calls, "result": "detached"}
    xt.grad = None
    error = _backward((g * const(v, g.dtype.name)).sum(), calls)
    return {"calls": calls, "result": error or _grad_report(xt.grad)}
