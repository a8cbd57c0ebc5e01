"""Probes for 03_stable_softmax: call the student's softmax_stable / logsumexp_stable on
arrays the trusted test chooses, and the student's LogSumExp op (forward, gradient, second
derivative) on needle Tensors built here. Every probe returns plain data only."""
import numpy as np

import needle as ndl
from autograder.probing import need, probe

DEFAULT = "default"  # "do not pass this argument": the student's default must apply


def _as_result(out):
    """The student's result as a numeric array (a numpy scalar keeps its dtype)."""
    return np.asarray(out)


def tensor(x, requires_grad: bool = True):
    """A needle Tensor with the array's own dtype (float32 or float64)."""
    x = np.asarray(x)
    return ndl.Tensor(x, dtype=x.dtype.name, requires_grad=requires_grad)


# --- Tasks 3.1 and 3.2: the numpy functions ----------------------------------------------------
@probe("softmax_stable")
def softmax(ns, x, axis=DEFAULT):
    f = need(ns, "softmax_stable")
    x = np.array(x)  # a fresh copy for the student's code
    return _as_result(f(x) if axis == DEFAULT else f(x, axis=axis))


@probe("logsumexp_stable")
def lse(ns, x, axis=DEFAULT, keepdims=DEFAULT):
    f = need(ns, "logsumexp_stable")
    x = np.array(x)
    kwargs = {}
    if axis != DEFAULT:
        kwargs["axis"] = tuple(axis) if isinstance(axis, list) else axis
    if keepdims != DEFAULT:
        kwargs["keepdims"] = keepdims
    return _as_result(f(x, **kwargs))


# --- Task 3.3: the needle op ---------------------------------------------------------------------
def _axes(axes):
    return tuple(axes) if isinstance(axes, list) else axes


@probe("logsumexp", "LogSumExp")
def op_forward(ns, x, axes=DEFAULT):
    """Forward through the student's logsumexp: the value, and whether it is a Tensor made by
    the student's LogSumExp op."""
    fn, cls = need(ns, "logsumexp"), need(ns, "LogSumExp")
    a = tensor(x)
    out = fn(a) if axes == DEFAULT else fn(a, axes=_axes(axes))
    is_tensor = isinstance(out, ndl.Tensor)
    return {
        "is_tensor": is_tensor,
        "made_by_op": is_tensor and isinstance(out.op, cls),
        "value": _as_result(out.numpy()) if is_tensor else None,
    }


@probe("logsumexp", "LogSumExp")
def op_gradient(ns, x, axes, out_grad):
    """The adjoint of the input that the student's LogSumExp.gradient returns for ``out_grad``
    (called directly on the node the forward made), and the same through ``backward``."""
    fn = need(ns, "logsumexp")
    need(ns, "LogSumExp")
    a = tensor(x)
    y = fn(a, axes=_axes(axes))
    if not isinstance(y, ndl.Tensor) or y.op is None:
        return {"has_op": False}
    g = tensor(out_grad, requires_grad=False)
    with ndl.no_grad():
        partial = y.op.gradient_as_tuple(g, y)[0]
    result = {"has_op": True, "is_tensor": isinstance(partial, ndl.Tensor)}
    result["grad"] = _as_result(partial.numpy() if result["is_tensor"] else partial)
    y.backward(g)
    result["backward_grad"] = None if a.grad is None else _as_result(a.grad.numpy())
    return result


@probe("logsumexp", "LogSumExp")
def op_second_order(ns, x, axes, out_grad, v):
    """Differentiate the gradient again: g = d(sum(out_grad * lse(a)))/da with
    create_graph=True, then d(sum(g * v))/da (a Hessian-vector product)."""
    fn = need(ns, "logsumexp")
    need(ns, "LogSumExp")
    a = tensor(x)
    y = fn(a, axes=_axes(axes))
    y.backward(tensor(out_grad, requires_grad=False), create_graph=True)
    g = a.grad
    if not isinstance(g, ndl.Tensor) or not g.requires_grad:
        return {"differentiable": False}
    a.grad = None
    (g * tensor(v, requires_grad=False)).sum().backward()
    return {"differentiable": True, "hvp": None if a.grad is None else _as_result(a.grad.numpy())}
