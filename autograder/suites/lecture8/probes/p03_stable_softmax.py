"""Probes for 03_stable_softmax: call the student's softmax_stable / logsumexp_stable on
arrays the trusted test chooses, and the student's LogSumExp op (forward, gradient, second
derivative) on needle Tensors built here. Every probe returns plain data only, what the
student's code returned (and the caller's copy of the input afterwards), for the trusted side to
judge against its float64 references; none calls needle's own log-sum-exp (needle.ops.logsumexp),
the thing the tasks ask for. One fact only the inside sees is returned as such and can only
fail a test: whether logsumexp's output was made by the student's LogSumExp.

Every probe runs under np.errstate(all="ignore"): a nan is judged by its value, never by a
floating-point warning."""
import functools

import numpy as np

import needle as ndl
from autograder.probing import need, probe

DEFAULT = "default"  # "do not pass this argument": the student's default must apply


def quiet(fn):
    """Run the probe under np.errstate(all="ignore"): a nan or an overflow is judged by its value,
    never by a floating-point warning (which some settings turn into an exception)."""

    @functools.wraps(fn)
    def run(*args, **kwargs):
        with np.errstate(all="ignore"):
            return fn(*args, **kwargs)

    return run


def _as_result(out):
    """The student's result as a numeric array (a numpy scalar keeps its dtype)."""
    return np.asarray(out)


def tensor(x, requires_grad: bool = True):
    """A needle Tensor with the array's own dtype (float32 or float64)."""
    x = np.asarray(x)
    return ndl.Tensor(x, dtype=x.dtype.name, requires_grad=requires_grad)


def _axes(axes):
    return tuple(axes) if isinstance(axes, list) else axes


# --- Tasks 3.1 and 3.2: the numpy functions ----------------------------------------------------
@probe("softmax_stable")
@quiet
def softmax(ns, x, axis=DEFAULT):
    """softmax_stable(x) on a fresh copy of x: its result, and the copy afterwards (a function
    that writes into its argument changes the caller's array)."""
    f = need(ns, "softmax_stable")
    x = np.array(x)
    return {"out": _as_result(f(x) if axis == DEFAULT else f(x, axis=axis)), "x_after": x.copy()}


def _lse_call(f, x, axis=DEFAULT, keepdims=DEFAULT):
    kwargs = {}
    if axis != DEFAULT:
        kwargs["axis"] = _axes(axis)
    if keepdims != DEFAULT:
        kwargs["keepdims"] = keepdims
    return _as_result(f(x, **kwargs))


@probe("logsumexp_stable")
@quiet
def lse(ns, x, axis=DEFAULT, keepdims=DEFAULT):
    """logsumexp_stable on a fresh copy of x: its result, and the copy afterwards."""
    x = np.array(x)
    return {"out": _lse_call(need(ns, "logsumexp_stable"), x, axis, keepdims), "x_after": x.copy()}


# --- Task 3.3: the needle op ---------------------------------------------------------------------
@probe("logsumexp", "LogSumExp")
@quiet
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


def _adjoint(fn, x, axes, out_grad):
    """The adjoint of the input that the student's LogSumExp.gradient returns for ``out_grad``,
    called directly on the node the forward made (None when the forward made no op)."""
    a = tensor(x)
    y = fn(a, axes=_axes(axes))
    if not isinstance(y, ndl.Tensor) or y.op is None:
        return a, y, None
    with ndl.no_grad():
        partial = y.op.gradient_as_tuple(tensor(out_grad, requires_grad=False), y)[0]
    return a, y, partial


@probe("logsumexp", "LogSumExp")
@quiet
def op_gradient(ns, x, axes, out_grad):
    """The adjoint LogSumExp.gradient returns for ``out_grad`` (called directly on the node
    the forward made), and the same through ``backward``."""
    fn = need(ns, "logsumexp")
    need(ns, "LogSumExp")
    a, y, partial = _adjoint(fn, x, axes, out_grad)
    if partial is None:
        return {"has_op": False}
    result = {"has_op": True, "is_tensor": isinstance(partial, ndl.Tensor)}
    if not result["is_tensor"]:  # needle's backward cannot use it: nothing more to run
        return result
    result["grad"] = _as_result(partial.numpy())
    y.backward(tensor(out_grad, requires_grad=False))
    result["backward_grad"] = None if a.grad is None else _as_result(a.grad.numpy())
    return result


@probe("logsumexp", "LogSumExp")
@quiet
def op_second_order(ns, x, axes, out_grad, v):
    """Differentiate the gradient again: g = d(sum(out_grad * lse(a)))/da with
    create_graph=True (its value is returned too), then d(sum(g * v))/da (a Hessian-vector
    product)."""
    fn = need(ns, "logsumexp")
    need(ns, "LogSumExp")
    a = tensor(x)
    y = fn(a, axes=_axes(axes))
    y.backward(tensor(out_grad, requires_grad=False), create_graph=True)
    g = a.grad
    if not isinstance(g, ndl.Tensor):
        return {"grad": None, "differentiable": False}
    result = {"grad": _as_result(g.numpy()), "differentiable": bool(g.requires_grad)}
    if not g.requires_grad:
        return result
    a.grad = None
    (g * tensor(v, requires_grad=False)).sum().backward()
    result["hvp"] = None if a.grad is None else _as_result(a.grad.numpy())
    return result
