"""Probes for 04_module_parameters: module trees built with the student's Module and
Parameter, ScaleAdd / MultiPathScaleAdd / L2Loss values and gradients.

Everything a probe returns is plain data; the trusted suite holds the expected values. The
builders below are also imported by the suite, to compute references with needle's
``nn.Module`` / ``optim`` classes."""
import numpy as np

import needle as ndl
from autograder.probing import need, probe

# --- module trees (Task 4.1) ----------------------------------------------------------------
# A tree is plain data, one list per node:
#   ["param", label]                        a new Parameter
#   ["ref", label]                          an object built earlier (a shared Parameter or Module)
#   ["module", label, [[attr, node], ...]]  a Module whose attributes are set in this order
#   ["list", [node, ...]], ["tuple", [node, ...]], ["dict", [[key, node], ...]]
#   ["tensor"]                              a plain Tensor (requires_grad=True), not a Parameter
#   ["array"]                               a numpy array
#   ["value", v]                            a number, a string or None

_BOXES: dict = {}


def box_class(Module):
    """A Module subclass with no behaviour of its own (attributes are set by build_tree)."""
    key = id(Module)
    if key not in _BOXES:
        class Box(Module):
            def __init__(self):
                super().__init__()

            def forward(self, x):
                return x

        _BOXES[key] = (Module, Box)  # keep Module alive so its id is not reused
    return _BOXES[key][1]


def build_tree(node, Module, Parameter, objects: dict):
    """Build ``node`` with the given Module / Parameter classes; record labelled objects."""
    kind = node[0]
    if kind == "param":
        p = Parameter(np.full((2,), float(len(objects)), dtype=np.float32))
        objects[node[1]] = p
        return p
    if kind == "ref":
        return objects[node[1]]
    if kind == "module":
        m = box_class(Module)()
        for attr, child in node[2]:
            setattr(m, attr, build_tree(child, Module, Parameter, objects))
        objects[node[1]] = m  # labelled once complete: a module never contains itself
        return m
    if kind == "list":
        return [build_tree(c, Module, Parameter, objects) for c in node[1]]
    if kind == "tuple":
        return tuple(build_tree(c, Module, Parameter, objects) for c in node[1])
    if kind == "dict":
        return {key: build_tree(c, Module, Parameter, objects) for key, c in node[1]}
    if kind == "tensor":
        return ndl.Tensor([1.0, 2.0])
    if kind == "array":
        return np.array([1.0, 2.0], dtype=np.float32)
    if kind == "value":
        return node[1]
    raise ValueError(f"unknown tree node {kind!r}")


def labels_of(found, objects: dict) -> list:
    """The label of each returned object; '?tensor' / '?other' for objects not in the tree."""
    names = {id(o): label for label, o in objects.items()}
    out = []
    for item in found:
        if id(item) in names:
            out.append(names[id(item)])
        elif isinstance(item, ndl.Tensor):
            out.append("?tensor")
        else:
            out.append("?other")
    return out


@probe("Module", "Parameter")
def tree_parameters(ns, tree):
    """root.parameters() of a tree, as labels (the order kept)."""
    Module, Parameter = need(ns, "Module"), need(ns, "Parameter")
    objects: dict = {}
    root = build_tree(tree, Module, Parameter, objects)
    found = root.parameters()
    is_list = isinstance(found, list)
    return {"is_list": is_list, "labels": labels_of(list(found), objects)}


@probe("Module")
def call_forward(ns, args, kwargs):
    """Call a Module subclass whose forward records what it received."""
    Module = need(ns, "Module")
    seen = {}
    marker = object()

    class Echo(Module):
        def forward(self, *a, **k):
            seen["args"], seen["kwargs"], seen["self"] = list(a), dict(k), self
            return marker

    m = Echo()
    result = m(*args, **kwargs)
    return {
        "returned_forward_result": result is marker,
        "forward_called": "args" in seen,
        "args": seen.get("args"),
        "kwargs": seen.get("kwargs"),
        "same_self": seen.get("self") is m,
    }


# --- ScaleAdd / MultiPathScaleAdd (Task 4.2) ------------------------------------------------
def _grad(p):
    if not isinstance(p, ndl.Tensor) or p.grad is None:
        return None
    return np.asarray(p.grad.numpy(), dtype=np.float64)


def _param_facts(p, Parameter) -> dict:
    if not isinstance(p, ndl.Tensor):
        return {"is_parameter": False, "is_tensor": False}
    return {
        "is_tensor": True,
        "is_parameter": isinstance(p, Parameter),
        "value": np.asarray(p.numpy(), dtype=np.float64),
        "dtype": str(p.dtype),
        "requires_grad": p.requires_grad is True,
        "leaf": p.op is None,
    }


@probe("ScaleAdd", "Parameter")
def scale_add_facts(ns, init=None):
    """ScaleAdd() (init None), ScaleAdd(*init) (a list) or ScaleAdd(**init) (a dict): s and b."""
    ScaleAdd, Parameter = need(ns, "ScaleAdd"), need(ns, "Parameter")
    if init is None:
        m = ScaleAdd()
    elif isinstance(init, list):
        m = ScaleAdd(*init)
    else:
        m = ScaleAdd(**init)
    s, b = getattr(m, "s", None), getattr(m, "b", None)
    return {"s": _param_facts(s, Parameter), "b": _param_facts(b, Parameter), "distinct": s is not b}


@probe("ScaleAdd")
def scale_add_grad(ns, s, b, x):
    """out = ScaleAdd(s, b).forward(x) for a one-element x, then out.backward()."""
    m = need(ns, "ScaleAdd")(s, b)
    xt = ndl.Tensor([x], requires_grad=False)
    out = m.forward(xt)
    value = np.asarray(out.numpy(), dtype=np.float64)
    out.backward()
    return {"out": value, "ds": _grad(m.s), "db": _grad(m.b), "x_grad_none": xt.grad is None}


@probe("MultiPathScaleAdd", "ScaleAdd")
def multipath_facts(ns, x):
    """Structure of MultiPathScaleAdd() and its forward value at x."""
    MultiPath, ScaleAdd = need(ns, "MultiPathScaleAdd"), need(ns, "ScaleAdd")
    m = MultiPath()
    p0, p1 = getattr(m, "path0", None), getattr(m, "path1", None)
    facts = {
        "paths_are_scale_add": isinstance(p0, ScaleAdd) and isinstance(p1, ScaleAdd),
        "distinct_paths": p0 is not p1,
    }
    if facts["paths_are_scale_add"]:
        params = [p0.s, p0.b, p1.s, p1.b]
        facts["distinct_params"] = len({id(p) for p in params})
        facts["values"] = [np.asarray(p.numpy(), dtype=np.float64) for p in params]
    facts["out"] = np.asarray(m.forward(ndl.Tensor([x], requires_grad=False)).numpy(), dtype=np.float64)
    return facts


@probe("MultiPathScaleAdd", "ScaleAdd")
def multipath_grad(ns, x, y, paths=None):
    """L = (h - y)^2 with h = MultiPathScaleAdd().forward(x), written with needle ops; L.backward().

    ``paths`` = [[s0, b0], [s1, b1]] replaces path0 / path1 by ScaleAdd(s0, b0) / ScaleAdd(s1, b1);
    None keeps the model's own paths. Returns h, L and the gradients of path0.s, path0.b,
    path1.s, path1.b."""
    MultiPath, ScaleAdd = need(ns, "MultiPathScaleAdd"), need(ns, "ScaleAdd")
    m = MultiPath()
    if paths is not None:
        m.path0 = ScaleAdd(*paths[0])
        m.path1 = ScaleAdd(*paths[1])
    h = m.forward(ndl.Tensor([x], requires_grad=False))
    z = h - ndl.Tensor([y], requires_grad=False)
    loss = z * z
    loss.backward()
    return {
        "h": np.asarray(h.numpy(), dtype=np.float64),
        "loss": np.asarray(loss.numpy(), dtype=np.float64),
        "grads": [_grad(p) for p in (m.path0.s, m.path0.b, m.path1.s, m.path1.b)],
    }


# --- L2Loss (Task 4.3) ----------------------------------------------------------------------
@probe("L2Loss", "Module")
def l2_loss(ns, x, y, w, y_requires_grad=True):
    """out = L2Loss().forward(x, y); then out.backward(w) when out has x's shape."""
    L2Loss, Module = need(ns, "L2Loss"), need(ns, "Module")
    loss_fn = L2Loss()
    xt = ndl.Tensor(np.asarray(x, dtype=np.float32))
    yt = ndl.Tensor(np.asarray(y, dtype=np.float32), requires_grad=y_requires_grad)
    out = loss_fn.forward(xt, yt)
    facts = {
        "is_module": isinstance(loss_fn, Module),
        "is_tensor": isinstance(out, ndl.Tensor),
        "out": np.asarray(out.numpy(), dtype=np.float64) if isinstance(out, ndl.Tensor) else None,
        "gx": None,
        "gy": None,
    }
    if facts["is_tensor"] and out.shape == xt.shape:
        out.backward(ndl.Tensor(np.asarray(w, dtype=np.float32), requires_grad=False))
        facts["gx"], facts["gy"] = _grad(xt), _grad(yt)
    return facts
