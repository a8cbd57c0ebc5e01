"""Probes for 10_op_gradients: run the student's BroadcastTo, Summation and MatMul gradients
(Tasks 10.1 to 10.3) on nodes built here and report plain data: each adjoint as an array, or a
fixed word for what came back instead. The forward values are set here (numpy's), so a gradient
is judged whatever the op's compute does. No expected value lives here; the trusted side judges."""
import numpy as np

import needle as ndl
from needle.autograd import Tensor, TensorTuple
from coursekit.hints import classify

from autograder.probing import need, probe


def _kind(value) -> str:
    """A fixed word for what a gradient returned (never a name the student's code chose)."""
    if isinstance(value, TensorTuple):
        return "tensortuple"
    if value is None:
        return "none"
    if isinstance(value, np.ndarray):
        return "ndarray"
    if isinstance(value, (tuple, list)):
        return "tuple"
    return "other"


def _report(value):
    """An adjoint as a float64 array if it is a Tensor, else the fixed word for its type."""
    if isinstance(value, Tensor) and not isinstance(value, TensorTuple):
        return np.array(value.numpy(), dtype=np.float64)
    return _kind(value)


def _needle_error(exc: ValueError) -> str:
    """A fixed word for the ValueErrors needle raises in a gradient built with its ops (else "").
    One raised on a line of the student's is raised again: the grader's hint shows that line."""
    if classify(exc)["where"] is not None:
        raise exc
    text = str(exc)
    if "cannot broadcast" in text:
        return "broadcast_error"
    if "cannot reshape" in text:
        return "reshape_error"
    if "not aligned" in text:
        return "matmul_error"
    if "dtypes" in text and "differ" in text:
        return "dtype_mismatch"
    if "shapes" in text and "differ" in text:
        return "shape_mismatch"
    return ""


def _node(op, inputs: list, value: np.ndarray) -> Tensor:
    """The node of ``op`` on ``inputs`` with its forward value set here."""
    with ndl.lazy_mode():
        node = op(*inputs)
    node.cached_data = value
    return node


def _leaf(array, dtype: str = "float64") -> Tensor:
    return Tensor(np.array(array), dtype=dtype)


def _const(array, dtype: str = "float64") -> Tensor:
    return Tensor(np.array(array), dtype=dtype, requires_grad=False)


def _op_node(ns, task: str, leaves: list, params: dict) -> Tensor:
    """The student's op of ``task`` applied to ``leaves``, forward value numpy's."""
    values = [x.realize_cached_data() for x in leaves]
    if task == "10.1":
        shape = tuple(params["shape"])
        return _node(need(ns, "BroadcastTo")(shape), leaves, np.broadcast_to(values[0], shape))
    if task == "10.2":
        axes, keepdims = params["axes"], params["keepdims"]
        axes = tuple(axes) if isinstance(axes, list) else axes  # a tuple arrives as a list
        op = need(ns, "Summation")(axes, keepdims)
        return _node(op, leaves, np.sum(values[0], axis=axes, keepdims=keepdims))
    return _node(need(ns, "MatMul")(), leaves, np.matmul(values[0], values[1]))


def _entries(raw, n: int) -> list:
    """The adjoints a gradient returned, one report per input (a bare Tensor is one input's)."""
    if n == 1 and isinstance(raw, (tuple, list)) and len(raw) == 1:
        raw = raw[0]
    if n == 1:
        return [_report(raw)]
    if isinstance(raw, (tuple, list)) and len(raw) == n:
        return [_report(r) for r in raw]
    return ["count" if isinstance(raw, (tuple, list)) else _kind(raw) if not isinstance(raw, Tensor) else "count"] * n


NEEDS = {"10.1": "BroadcastTo", "10.2": "Summation", "10.3": "MatMul"}


@probe("BroadcastTo", "Summation", "MatMul")
def direct_gradient(ns, task: str, inputs: list, out_grad, dtype: str = "float64", **params):
    """The op's gradient called directly: gradient(out_grad, node); one report per input."""
    leaves = [_leaf(x, dtype) for x in inputs]
    node = _op_node(ns, task, leaves, params)
    try:
        raw = node.op.gradient(_const(out_grad, dtype), node)
    except ValueError as exc:
        word = _needle_error(exc)
        if not word:
            raise
        return [word] * len(leaves)
    return _entries(raw, len(leaves))


@probe("BroadcastTo", "Summation", "MatMul")
def graph_gradient(ns, task: str, graph: str, inputs: list, out_grad, w=None, **params):
    """The leaves' .grad after backward(out_grad) through a graph holding the student's op:
    "alone" (the op's output is the graph's output), "weighted" (op(x) * w, w a constant: the
    hand-derived cases), "composed" (exp(x / 2) into the op, the op's output times itself)."""
    leaves = [_leaf(x) for x in inputs]
    if graph == "composed":
        sources = [(x * 0.5).exp() for x in leaves]
        node = _op_node(ns, task, sources, params)
        out = node * node
    else:
        node = _op_node(ns, task, leaves, params)
        out = node * _const(w) if graph == "weighted" else node
    try:
        out.backward(_const(out_grad))
    except ValueError as exc:
        word = _needle_error(exc)
        if not word:
            raise
        return [word] * len(leaves)
    return [_report(x.grad) for x in leaves]
