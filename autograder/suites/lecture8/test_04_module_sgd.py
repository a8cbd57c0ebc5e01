"""Hidden tests for 04_module_sgd (Tasks 4.1 to 4.5)."""
import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

import needle as ndl
from autograder.suite import HYPOTHESIS, assert_close, expect_array, graded, load_probes

P = load_probes(__file__)

# Needle's own implementation of each task: a task answered with it (calling it, an alias,
# a subclass of its class) scores nothing. needle's Tensor and ops, and your own earlier
# tasks, stay allowed.
OWN_WORK = {
    "4.1": ("Parameter and Module", ["needle.nn.Parameter", "needle.nn.Module", "needle.nn._walk", "needle.nn._walk_dict"]),
    "4.3": ("L2Loss", ["needle.nn.L2Loss"]),
    "4.4": ("Optimizer and SGD", ["needle.optim"]),
}




# --- tree builders (plain data, see the probes module) -------------------------------------
def Par(label):
    return ["param", label]


def Ref(label):
    return ["ref", label]


def Mod(label, *attrs):
    return ["module", label, [list(a) for a in attrs]]


def Lst(*items):
    return ["list", list(items)]


def Tup(*items):
    return ["tuple", list(items)]


def Dct(*items):
    return ["dict", [list(i) for i in items]]


def Val(v):
    return ["value", v]


def reference_labels(tree):
    """The labels needle's reference nn.Module.parameters() returns for the same tree."""
    objects = {}
    root = P.build_tree(tree, ndl.nn.Module, ndl.nn.Parameter, objects)
    return P.labels_of(root.parameters(), objects)


def tree_labels(observe, tree):
    r = observe(P.tree_parameters, tree=tree)
    assert r["is_list"], "parameters() must return a list (not a generator, tuple or set)"
    return r["labels"]


def central_diff(f, theta, eps=1e-6):
    """float64 central differences of the scalar function f at the vector theta."""
    theta = np.asarray(theta, dtype=np.float64)
    g = np.zeros_like(theta)
    for i in range(theta.size):
        e = np.zeros_like(theta)
        e.flat[i] = eps
        g.flat[i] = (f(theta + e) - f(theta - e)) / (2 * eps)
    return g


def f32(v):
    """What a float becomes in a float32 Tensor (the probes build float32 inputs)."""
    return np.asarray(v, dtype=np.float32).astype(np.float64)


# --- Task 4.1: Parameter and Module ---------------------------------------------------------


@graded("4.1", points=1)
def test_parameters_direct_attributes(observe):
    """parameters() returns the Parameters held in attributes, as a list"""
    labels = tree_labels(observe, Mod("root", ["weight", Par("p0")], ["bias", Par("p1")]))
    assert "?tensor" not in labels, (
        "parameters() returned tensors that are not the module's Parameter objects: return the Parameters "
        "themselves (no copies, no .data)"
    )
    assert labels == ["p0", "p1"], "parameters() must return every Parameter stored in the module's attributes"


@graded("4.1", points=1)
def test_parameters_attribute_order(observe):
    """parameters() follows attribute order, depth first"""
    # attributes set in the order z, a, inner (y, b), m: the walk order is p0, p1, p2, p3, p4
    # (self.__dict__ keeps insertion order: no sorting by name)
    tree = Mod("root", ["z", Par("p0")], ["a", Par("p1")],
               ["inner", Mod("m0", ["y", Par("p2")], ["b", Par("p3")])], ["m", Par("p4")])
    labels = tree_labels(observe, tree)
    assert sorted(labels) == ["p0", "p1", "p2", "p3", "p4"], (
        "parameters() must find the Parameters of the module and of its sub-modules, each once"
    )
    assert labels == ["p0", "p1", "p2", "p3", "p4"], (
        "parameters() must list Parameters in attribute order (the order of self.__dict__), entering a "
        "sub-module where it appears: do not sort and do not collect the sub-modules last"
    )


@graded("4.1", points=2)
def test_parameters_nested_modules(observe):
    """parameters() recurses through nested sub-modules"""
    # three levels: root.enc.l1.{w, b}, root.enc.l2.w, an empty sub-module, then root.head
    tree = Mod("root",
               ["enc", Mod("m2", ["l1", Mod("m0", ["w", Par("p0")], ["b", Par("p1")])],
                           ["l2", Mod("m1", ["w", Par("p2")])])],
               ["empty", Mod("m3")],
               ["head", Par("p3")])
    labels = tree_labels(observe, tree)
    assert labels == ["p0", "p1", "p2", "p3"], (
        "parameters() must walk sub-modules recursively, to any depth (a sub-module's sub-modules too), "
        "in attribute order"
    )
    assert tree_labels(observe, Mod("root", ["a", Mod("m0", ["b", Mod("m1")])])) == [], (
        "a module tree without Parameters has parameters() == []"
    )


@graded("4.1", points=1)
def test_parameters_in_dicts(observe):
    """parameters() looks inside dicts (nested ones too)"""
    # dict values in insertion order: heads.cls (p0), heads.box.w (p1), cfg.inner.deep (p2), bias (p3)
    tree = Mod("root",
               ["heads", Dct(["cls", Par("p0")], ["box", Mod("m0", ["w", Par("p1")])])],
               ["cfg", Dct(["inner", Dct(["deep", Par("p2")])], ["lr", Val(0.1)])],
               ["bias", Par("p3")])
    labels = tree_labels(observe, tree)
    assert labels == ["p0", "p1", "p2", "p3"], (
        "parameters() must walk the values of dicts held in attributes (Parameters, sub-modules and nested "
        "containers inside them), in insertion order"
    )


@graded("4.1", points=2)
def test_parameters_in_lists_and_tuples(observe):
    """parameters() looks inside lists and tuples (nested ones too)"""
    # a Sequential-like list of sub-modules: layers[0].w, layers[1].w, then bias
    tree = Mod("root", ["layers", Lst(Mod("m0", ["w", Par("p0")]), Mod("m1", ["w", Par("p1")]))],
               ["none", Lst()], ["bias", Par("p2")])
    assert tree_labels(observe, tree) == ["p0", "p1", "p2"], (
        "parameters() must walk lists held in attributes (e.g. a list of layers), in order"
    )
    tree = Mod("root", ["pair", Tup(Par("p0"), Par("p1"))], ["c", Par("p2")])
    assert tree_labels(observe, tree) == ["p0", "p1", "p2"], (
        "parameters() must walk tuples held in attributes too, not only lists"
    )
    # containers inside containers: a tuple holding a list and a dict holding a tuple
    tree = Mod("root", ["mixed", Tup(Lst(Par("p0"), Mod("m0", ["w", Par("p1")])), Dct(["k", Tup(Par("p2"))]))])
    assert tree_labels(observe, tree) == ["p0", "p1", "p2"], (
        "parameters() must walk containers nested in containers (lists, tuples and dicts in any combination)"
    )


@graded("4.1", points=2)
def test_parameters_shared_once(observe):
    """a shared Parameter (or sub-module) is listed once"""
    # tied weights: the same Parameter object under two names -> listed at its first place only
    tree = Mod("root", ["w", Par("p0")], ["w_tied", Ref("p0")], ["b", Par("p1")])
    assert tree_labels(observe, tree) == ["p0", "p1"], (
        "a Parameter held under two attribute names was listed twice: keep each Parameter once (compare by "
        "identity, e.g. a set of id(p)), else the optimizer updates it twice per step"
    )
    tree = Mod("root", ["enc", Mod("m0", ["w", Par("p0")])], ["dec", Mod("m1", ["w_t", Ref("p0")], ["b", Par("p1")])])
    assert tree_labels(observe, tree) == ["p0", "p1"], (
        "a Parameter shared by two sub-modules was listed twice: deduplicate over the whole walk, not per module"
    )
    tree = Mod("root", ["block", Mod("m0", ["w", Par("p0")], ["b", Par("p1")])],
               ["again", Lst(Ref("m0"), Ref("m0"))], ["c", Par("p2")])
    assert tree_labels(observe, tree) == ["p0", "p1", "p2"], (
        "a sub-module reachable along several paths contributes its Parameters once"
    )


@graded("4.1", points=1)
def test_parameters_ignore_other_attributes(observe):
    """parameters() ignores plain Tensors, numbers, strings, None and arrays"""
    tree = Mod("root", ["t", ["tensor"]], ["w", Par("p0")], ["n", Val(3)], ["lr", Val(0.5)],
               ["name", Val("ScaleAdd")], ["nothing", Val(None)], ["arr", ["array"]],
               ["buffers", Lst(["tensor"], ["tensor"])], ["flag", Val(True)], ["b", Par("p1")])
    labels = tree_labels(observe, tree)
    assert "?tensor" not in labels, (
        "parameters() returned plain Tensors: only Parameter instances are trainable (test "
        "isinstance(v, Parameter), not isinstance(v, ndl.Tensor))"
    )
    assert labels == ["p0", "p1"], (
        "parameters() must return only the Parameters: numbers, strings, None and arrays are not walked"
    )
    assert tree_labels(observe, Mod("root", ["t", ["tensor"]], ["s", Val("abc")])) == [], (
        "a module without Parameters (only plain Tensors and other values) has parameters() == []"
    )


LEAF_KINDS = ("param", "param", "ref", "tensor", "value", "array")
VALUES = (3, 0.5, "name", None, True)
RAW_TREE = st.recursive(
    st.tuples(st.sampled_from(LEAF_KINDS), st.integers(0, 9)),
    lambda kids: st.tuples(st.sampled_from(("list", "tuple", "dict", "module")), st.lists(kids, max_size=3)),
    max_leaves=14,
)


def finalize(raw_attrs):
    """Turn a raw hypothesis tree into a probe tree: labels, attribute names, resolved refs."""
    made = {"params": [], "done": []}

    def name(i):
        return f"k{(3 * i + 2) % 5}"  # distinct, and not in sorted order

    def node(raw):
        kind, arg = raw
        if kind == "ref" and made["params"] + made["done"]:
            pool = made["params"] + made["done"]
            return Ref(pool[arg % len(pool)])
        if kind in ("param", "ref"):
            label = f"p{len(made['params'])}"
            made["params"].append(label)
            return Par(label)
        if kind == "tensor":
            return ["tensor"]
        if kind == "array":
            return ["array"]
        if kind == "value":
            return Val(VALUES[arg % len(VALUES)])
        children = [node(c) for c in arg]
        if kind == "list":
            return Lst(*children)
        if kind == "tuple":
            return Tup(*children)
        if kind == "dict":
            return Dct(*[[name(i), c] for i, c in enumerate(children)])
        label = f"m{len(made['done'])}"
        made["done"].append(label)  # a module can be referenced once it is complete
        return Mod(label, *[[name(i), c] for i, c in enumerate(children)])

    children = [node(c) for c in raw_attrs]
    return Mod("root", *[[name(i), c] for i, c in enumerate(children)])


@graded("4.1", points=1)
@settings(max_examples=30, **HYPOTHESIS)
@given(raw=st.lists(RAW_TREE, max_size=5))
def test_parameters_random_trees(observe, raw):
    """parameters() matches the reference on generated module trees"""
    tree = finalize(raw)
    assert tree_labels(observe, tree) == reference_labels(tree), (
        "on a generated tree of modules, dicts, lists, tuples, shared Parameters and other values, "
        "parameters() differs from the expected list: walk every container, keep each Parameter once, "
        "in attribute order"
    )


@graded("4.1", points=1)
def test_call_runs_forward(observe):
    """module(...) calls forward with the same arguments and returns its result"""
    r = observe(P.call_forward, args=[1, "two", [3.0]], kwargs={"k": 4})
    assert r["forward_called"], "calling a module must call its forward method"
    assert r["args"] == [1, "two", [3.0]] and r["kwargs"] == {"k": 4}, (
        "__call__ must pass every positional and keyword argument on to forward unchanged (*args, **kwargs)"
    )
    assert r["same_self"], "__call__ must call forward on the module itself (self.forward)"
    assert r["returned_forward_result"], "__call__ must return what forward returned"
    r = observe(P.call_forward, args=[], kwargs={})
    assert r["forward_called"] and r["args"] == [] and r["kwargs"] == {}, "module() with no arguments calls forward()"


# --- Task 4.2: ScaleAdd and MultiPathScaleAdd -----------------------------------------------


def check_param(facts, name, value):
    assert facts["is_tensor"] and facts["is_parameter"], f"ScaleAdd.{name} must be a Parameter (the class from Task 4.1)"
    assert facts["leaf"] and facts["requires_grad"], f"ScaleAdd.{name} must be a leaf that requires grad"
    assert facts["dtype"] == "float32", f"ScaleAdd.{name} must be float32 (Parameter([init], dtype='float32'))"
    assert facts["value"].shape == (1,), f"ScaleAdd.{name} must have shape (1,): wrap the initial value in a list"
    assert_close(facts["value"], [value], f"ScaleAdd.{name} does not hold its initial value (init_s for s, init_b for b)")


@graded("4.2", points=1)
def test_scale_add_parameters(observe):
    """ScaleAdd holds Parameters s and b of shape (1,) with their initial values"""
    f = observe(P.scale_add_facts, init=None)
    check_param(f["s"], "s", 1.0)  # defaults: init_s=1, init_b=0
    check_param(f["b"], "b", 0.0)
    f = observe(P.scale_add_facts, init=[-2.5, 0.75])  # positional: ScaleAdd(init_s, init_b)
    check_param(f["s"], "s", -2.5)
    check_param(f["b"], "b", 0.75)
    f = observe(P.scale_add_facts, init={"init_b": 4.0})  # keyword, s keeps its default
    check_param(f["s"], "s", 1.0)
    check_param(f["b"], "b", 4.0)
    assert f["distinct"], "s and b must be two different Parameter objects"


@graded("4.2", points=2)
def test_scale_add_forward_and_gradient(observe):
    """ScaleAdd computes x * s + b, with d/ds = x and d/db = 1"""
    # out = s x + b;  d out / ds = x;  d out / db = 1
    #   s = 1.5, b = -0.5, x = 3:    out = 4.5 - 0.5 = 4,     ds = 3,    db = 1
    #   s = -2,  b = 0.25, x = -1.5: out = 3 + 0.25 = 3.25,   ds = -1.5, db = 1
    for s, b, x, out, ds in ((1.5, -0.5, 3.0, 4.0, 3.0), (-2.0, 0.25, -1.5, 3.25, -1.5)):
        r = observe(P.scale_add_grad, s=s, b=b, x=x)
        assert_close(expect_array(r["out"], "forward must return a Tensor", shape=(1,)), [out],
                     "ScaleAdd.forward must compute x * s + b")
        assert r["ds"] is not None and r["db"] is not None, "s and b got no gradient: build the output from self.s and self.b"
        assert_close(r["ds"], [ds], "the gradient of x * s + b with respect to s is wrong (it is x)")
        assert_close(r["db"], [1.0], "the gradient of x * s + b with respect to b is wrong (it is 1)")
    # float64 central differences of f(s, b) = s x + b at another point
    s, b, x = f32(0.3), f32(-1.2), f32(2.7)
    r = observe(P.scale_add_grad, s=0.3, b=-1.2, x=2.7)
    num = central_diff(lambda t: t[0] * x + t[1], [s, b])
    assert_close(np.concatenate([r["ds"], r["db"]]), num, "ScaleAdd's gradients disagree with finite differences",
                 rtol=1e-4, atol=1e-4)


@graded("4.2", points=1)
def test_multipath_structure(observe):
    """MultiPathScaleAdd has two separate default ScaleAdd paths and sums them"""
    r = observe(P.multipath_facts, x=1.25)
    assert r["paths_are_scale_add"], "MultiPathScaleAdd needs attributes path0 and path1 that are ScaleAdd modules"
    assert r["distinct_paths"] and r["distinct_params"] == 4, (
        "path0 and path1 must be two separate ScaleAdd() objects with their own Parameters (four in all), "
        "not one module stored twice"
    )
    assert_close(np.concatenate(r["values"]), [1.0, 0.0, 1.0, 0.0], "each path must be ScaleAdd() with its defaults (s=1, b=0)")
    # h = (1 * 1.25 + 0) + (1 * 1.25 + 0) = 2.5
    assert_close(r["out"], [2.5], "MultiPathScaleAdd.forward must return path0(x) + path1(x)")


@graded("4.2", points=2)
def test_multipath_gradient(observe):
    """MultiPathScaleAdd gradients match the hand derivation and finite differences"""
    # L = (h - y)^2, h = (s0 x + b0) + (s1 x + b1):  dL/ds_i = 2 (h - y) x,  dL/db_i = 2 (h - y)
    # lecture point s = 1, b = 0, x = 2, y = 3: h = 4, dL/ds_i = 2 * 1 * 2 = 4, dL/db_i = 2 * 1 = 2
    r = observe(P.multipath_grad, x=2.0, y=3.0)
    assert_close(r["h"], [4.0], "MultiPathScaleAdd.forward must return path0(x) + path1(x)")
    assert all(g is not None for g in r["grads"]), "a path's s or b got no gradient: both paths must be used in forward"
    assert_close(np.concatenate(r["grads"]), [4.0, 2.0, 4.0, 2.0],
                 "at s = 1, b = 0, x = 2, y = 3 each path must get dL/ds = 4 and dL/db = 2 (one contribution per path)")
    # defaults at x = -1, y = 0.5: h = -2, h - y = -2.5: dL/ds_i = 2 (-2.5)(-1) = 5, dL/db_i = -5
    r = observe(P.multipath_grad, x=-1.0, y=0.5)
    assert_close(np.concatenate(r["grads"]), [5.0, -5.0, 5.0, -5.0], "the gradients of the multi-path model are wrong")
    # central differences at non-default paths
    for paths, x, y in (([[0.5, 1.0], [-2.0, 0.25]], 1.5, 0.0), ([[1.3, -0.7], [0.4, 2.2]], -0.8, 1.9)):
        r = observe(P.multipath_grad, x=x, y=y, paths=paths)
        xs, ys = f32(x), f32(y)
        theta = f32(np.array(paths).reshape(-1))  # s0, b0, s1, b1
        num = central_diff(lambda t: (t[0] * xs + t[1] + t[2] * xs + t[3] - ys) ** 2, theta)
        assert all(g is not None for g in r["grads"]), "a path's s or b got no gradient: forward must use self.path0 and self.path1"
        assert_close(np.concatenate(r["grads"]), num, "the multi-path gradients disagree with finite differences",
                     rtol=1e-4, atol=1e-4)


# --- Task 4.3: L2Loss -----------------------------------------------------------------------


@graded("4.3", points=2)
def test_l2_loss_value(observe):
    """L2Loss is a Module computing (x - y)^2 element-wise"""
    # x - y = [-2, 0, 1.5] -> [4, 0, 2.25]
    r = observe(P.l2_loss, x=[1.0, -2.0, 0.5], y=[3.0, -2.0, -1.0], w=[1.0, 1.0, 1.0])
    assert r["is_module"], "L2Loss must be a subclass of your Module"
    assert r["is_tensor"], "L2Loss.forward must return a needle Tensor"
    out = expect_array(r["out"], "L2Loss.forward must return a Tensor",)
    assert out.shape == (3,), "L2Loss must be element-wise: (x - y)^2 with the shape of x, not summed or averaged"
    assert_close(out, [4.0, 0.0, 2.25], "L2Loss must compute (x - y)^2 element by element")
    rng = np.random.default_rng(43)
    x, y = rng.standard_normal((2, 3)), rng.standard_normal((2, 3))
    r = observe(P.l2_loss, x=x, y=y, w=np.ones((2, 3)), y_requires_grad=False)
    assert r["is_tensor"] and r["out"].shape == (2, 3), "L2Loss must keep the shape of its inputs"
    assert_close(r["out"], (f32(x) - f32(y)) ** 2, "L2Loss must compute (x - y)^2 element by element")


@graded("4.3", points=2)
def test_l2_loss_gradient(observe):
    """L2Loss gradients: 2(x - y) for x and -2(x - y) for y"""
    # d/dx (x - y)^2 = 2 (x - y), d/dy = -2 (x - y); with upstream weights w = [1, 2, -1]
    # and x - y = [-2, 0, 1.5]: dx = 2 (x - y) w = [-4, 0, -3], dy = [4, 0, 3]
    r = observe(P.l2_loss, x=[1.0, -2.0, 0.5], y=[3.0, -2.0, -1.0], w=[1.0, 2.0, -1.0])
    assert r["gx"] is not None and r["gy"] is not None, (
        "x or y got no gradient from L2Loss (or the output does not have x's shape): build it from x and y with needle ops"
    )
    assert_close(r["gx"], [-4.0, 0.0, -3.0], "the gradient of (x - y)^2 with respect to x is wrong (it is 2 (x - y))")
    assert_close(r["gy"], [4.0, 0.0, 3.0], "the gradient of (x - y)^2 with respect to y is wrong (it is -2 (x - y))")
    # float64 central differences of f(x, y) = sum(w * (x - y)^2)
    rng = np.random.default_rng(44)
    x, y, w = (f32(rng.standard_normal((2, 3))) for _ in range(3))
    r = observe(P.l2_loss, x=x, y=y, w=w)
    assert r["gx"] is not None and r["gy"] is not None, "x or y got no gradient from L2Loss"
    theta = np.concatenate([x.ravel(), y.ravel()])
    num = central_diff(lambda t: np.sum(w.ravel() * (t[:6] - t[6:]) ** 2), theta)
    assert_close(np.concatenate([r["gx"].ravel(), r["gy"].ravel()]), num,
                 "L2Loss's gradients disagree with finite differences", rtol=1e-4, atol=1e-4)


# --- Task 4.4: Optimizer and SGD ------------------------------------------------------------


def pytorch_sgd(init, grads, lr, momentum=None):
    """torch.optim.SGD(params, lr, momentum) (dampening 0, no weight decay, no Nesterov), in float64.

    Per step, for every parameter p whose gradient g is not None:
        momentum == 0:  p <- p - lr * g
        otherwise:      buf <- g on p's first update, else momentum * buf + g;  p <- p - lr * buf
    A parameter without a gradient is skipped entirely (its buffer too).
    grads[t][i]: an array, None, or "keep" (the gradient of the previous step stays)."""
    momentum = momentum or 0.0
    params = [f32(a).copy() for a in init]
    current = [None] * len(params)
    bufs = [None] * len(params)
    values = []
    for step in grads:
        for i, g in enumerate(step):
            if not isinstance(g, str):
                current[i] = None if g is None else f32(g)
        for i, g in enumerate(current):
            if g is None:
                continue
            if momentum:
                bufs[i] = g.copy() if bufs[i] is None else momentum * bufs[i] + g
                g = bufs[i]
            params[i] = params[i] - lr * g
        values.append([p.copy() for p in params])
    return values


def random_problem(seed, shapes, steps):
    rng = np.random.default_rng(seed)
    init = [rng.standard_normal(s) for s in shapes]
    grads = [[rng.standard_normal(s) for s in shapes] for _ in range(steps)]
    return init, grads


def check_trajectory(observe, init, grads, lr, momentum, message):
    r = observe(P.sgd_trajectory, init=init, grads=grads, lr=lr, momentum=momentum)
    want = pytorch_sgd(init, grads, lr, momentum)
    for step, (got_step, want_step) in enumerate(zip(r["values"], want)):
        for got, exp in zip(got_step, want_step):
            assert_close(got, exp, message + f" (parameter values differ after step {step + 1})", rtol=1e-5, atol=1e-5)
    return r


@graded("4.4", points=2)
def test_reset_grad_sets_none(observe):
    """reset_grad sets every parameter's grad to None"""
    shapes = [(2,), (3,), (1,), (2, 2)]
    for use_sgd in (False, True):
        r = observe(P.reset_grad, shapes=shapes, use_sgd=use_sgd)
        assert all(r["grad_none"]), (
            "after reset_grad() some parameter still has a gradient: set p.grad = None for every parameter "
            "(None, not a zero Tensor: backward() then starts afresh)"
            + (" (SGD must inherit reset_grad from Optimizer)" if use_sgd else "")
        )
        for v, s in zip(r["values"], shapes):
            assert_close(v, np.full(s, 1.5), "reset_grad must not change the parameters' values")


@graded("4.4", points=2)
def test_sgd_plain_trajectory(observe):
    """SGD without momentum: p <- p - lr * grad over several steps"""
    # one parameter w = 1, gradient 2 at every step, lr = 0.1: w = 0.8, 0.6, 0.4 (by hand)
    r = observe(P.sgd_trajectory, init=[[1.0]], grads=[[[2.0]]] * 3, lr=0.1)
    assert_close(np.array([v[0][0] for v in r["values"]]), [0.8, 0.6, 0.4],
                 "SGD.step must do p <- p - lr * p.grad for every parameter", rtol=1e-5, atol=1e-6)
    init, grads = random_problem(401, [(1,), (3,), (2, 3)], steps=4)
    check_trajectory(observe, init, grads, 0.1, None, "SGD without momentum must update p <- p - lr * p.grad")
    init, grads = random_problem(402, [(4,), (2, 2)], steps=3)
    check_trajectory(observe, init, grads, 0.35, 0.0, "SGD with momentum=0.0 must update p <- p - lr * p.grad")


@graded("4.4", points=3)
def test_sgd_momentum_trajectory(observe):
    """SGD with momentum follows PyTorch's rule (the buffer starts at the first gradient)"""
    # w = 1, g = 1 every step, lr = 0.1, momentum 0.9 (by hand):
    #   step 1: buf = g = 1                 -> w = 1 - 0.1 * 1 = 0.9
    #   step 2: buf = 0.9 * 1 + 1 = 1.9     -> w = 0.9 - 0.19 = 0.71
    #   step 3: buf = 0.9 * 1.9 + 1 = 2.71  -> w = 0.71 - 0.271 = 0.439
    r = observe(P.sgd_trajectory, init=[[1.0]], grads=[[[1.0]]] * 3, lr=0.1, momentum=0.9)
    got = np.array([v[0][0] for v in r["values"]])
    assert_close(got[:1], [0.9], (
        "the first momentum step must move p by lr * g: PyTorch starts the buffer AT the first gradient "
        "(buf = g), not at zero with buf = momentum * buf + (1 - momentum) * g"
    ), rtol=1e-5, atol=1e-6)
    assert_close(got, [0.9, 0.71, 0.439], "SGD momentum must use buf <- momentum * buf + g and p <- p - lr * buf",
                 rtol=1e-5, atol=1e-6)
    init, grads = random_problem(403, [(1,), (3,), (2, 3)], steps=5)
    check_trajectory(observe, init, grads, 0.05, 0.9, "SGD with momentum must follow PyTorch's rule, one buffer per parameter")
    init, grads = random_problem(404, [(2,), (3, 1)], steps=4)
    check_trajectory(observe, init, grads, 0.2, 0.5, "SGD with momentum must follow PyTorch's rule, one buffer per parameter")


@graded("4.4", points=2)
def test_sgd_skips_none_grads(observe):
    """SGD skips parameters whose grad is None"""
    rng = np.random.default_rng(405)
    init = [rng.standard_normal(3), rng.standard_normal(2), rng.standard_normal(2)]
    g = lambda n: rng.standard_normal(n)  # noqa: E731
    # parameter 2 never has a gradient; 0 and 1 have gaps
    grads = [[g(3), None, None], [None, g(2), None], [g(3), g(2), None], [g(3), None, None]]
    for momentum in (None, 0.9):
        r = check_trajectory(observe, init, grads, 0.1, momentum, (
            "a parameter whose grad is None must be skipped (no update, its momentum buffer untouched); the "
            "others updated as usual"
        ))
        for step in r["values"]:
            assert np.array_equal(step[2], f32(init[2])), "a parameter that never had a gradient must keep its value exactly"


@graded("4.4", points=2)
def test_sgd_keeps_identity_no_graph(observe):
    """SGD updates the parameters in place: same objects, leaves, no graph"""
    for momentum in (0.0, 0.9):
        f = observe(P.sgd_identity, momentum=momentum, steps=3)
        assert all(f["array_data"]), "after step() a parameter's data is not a numpy array: assign a Tensor or array to p.data"
        assert all(f["changed"]), (
            "the model's own parameter objects were not updated: `p = p - lr * g` (or replacing list items) only "
            "rebinds names; write the new value into the same object with p.data = ..."
        )
        assert all(f["leaf"]) and all(f["no_inputs"]), (
            "after step() a parameter has an op / inputs: the update grew a graph; update through p.data"
        )
        assert all(f["requires_grad"]), "after step() a parameter no longer requires grad: keep it a trainable leaf"
        assert all(f["float32"]) and all(f["shape_kept"]), "step() changed a parameter's dtype or shape: keep float32 and its shape"


@graded("4.4", points=1)
def test_sgd_same_gradient_kept(observe):
    """SGD with momentum leaves p.grad unchanged, even when it is reused"""
    # the same gradient Tensor stays in p.grad for three steps (no reset_grad in between)
    rng = np.random.default_rng(406)
    init, g = [rng.standard_normal(4)], rng.standard_normal(4)
    grads = [[g], ["keep"], ["keep"]]
    r = check_trajectory(observe, init, grads, 0.1, 0.9, (
        "with the same gradient kept in p.grad the momentum steps go wrong: do not update the momentum buffer "
        "in place while it shares memory with p.grad"
    ))
    for step in r["grads_after"]:
        assert step[0] is not None, "step() must not remove or replace p.grad"
        assert_close(step[0], f32(g), "step() changed p.grad: only read the gradient")


# --- Task 4.5: train ------------------------------------------------------------------------


def reference_losses(setting, epochs, stale=False):
    """The recorded losses of the loop restated with needle's own classes."""
    model, loss_fn, opt, x, y = P.make_setting(setting, stale)
    out = []
    for _ in range(epochs):
        opt.reset_grad()
        loss = loss_fn(model(x), y)
        out.append(loss.numpy().item())
        loss.backward()
        opt.step()
    return out


def lecture_losses(epochs):
    # x = y = 2, lr = 0.01, every s = 1, b = 0: h = 4, e = h - y = 2, loss_0 = e^2 = 4.
    # One step: each s_i moves by -lr * 2 e x and each b_i by -lr * 2 e, so
    #   h changes by 2 (x ds + db) = -4 lr e (x^2 + 1) = -0.2 e,  e_{k+1} = 0.8 e_k,
    # and loss_k = 4 * 0.64^k: 4.0, 2.56, 1.6384, ... (the lecture's printout).
    return 4.0 * 0.64 ** np.arange(epochs)


@graded("4.5", points=2)
def test_train_lecture_losses(observe):
    """train reproduces the lecture's losses 4.0, 2.56, 1.6384, ..."""
    r = observe(P.run_train, setting="lecture", epochs=10)
    losses = expect_array(r["losses"], "train must return the list of losses")
    assert losses.shape == (10,), "train must record one loss per epoch"
    assert_close(losses[:1], [4.0], (
        "the first recorded loss is not the loss of the initial parameters: record the loss computed BEFORE "
        "opt.step() (the loss of the model as it was when you evaluated it)"
    ), rtol=1e-5)
    assert_close(losses, lecture_losses(10), (
        "the recorded losses do not follow the lecture's run: each epoch reset_grad, loss = loss_fn(model(x), y), "
        "record it, loss.backward(), opt.step()"
    ), rtol=1e-5, atol=0)


@graded("4.5", points=1)
def test_train_returns_floats(observe):
    """train returns a list of Python floats, one per epoch"""
    r = observe(P.run_train, setting="lecture", epochs=3)
    assert r["is_list"], "train must return a list"
    assert len(r["floats"]) == 3, "train must return one loss per epoch"
    assert all(r["floats"]), (
        "train must record Python floats (e.g. loss.numpy().item()), not arrays, numpy scalars or Tensors: "
        "a Tensor kept in the list also keeps its whole graph alive"
    )
    r = observe(P.run_train, setting="lecture", epochs=0)
    assert r["is_list"] and r["floats"] == [], "train with epochs=0 must return an empty list"


@graded("4.5", points=2)
def test_train_other_models(observe):
    """train works unchanged with another model, loss and optimizer"""
    for setting, epochs in (("momentum", 12), ("mlp_adam", 15)):
        r = observe(P.run_train, setting=setting, epochs=epochs)
        losses = expect_array(r["losses"], "train must return the list of losses")
        assert losses.shape == (epochs,), "train must record one loss per epoch"
        assert_close(losses, reference_losses(setting, epochs), (
            "with another model / loss / optimizer the recorded losses are wrong: use only the arguments "
            "(model(x), loss_fn(..., y), opt.reset_grad(), opt.step()) and record each loss before the step"
        ), rtol=1e-5, atol=1e-7)


@graded("4.5", points=1)
def test_train_clears_stale_gradients(observe):
    """train resets gradients left over from an earlier backward()"""
    # the parameters already hold gradients (as after a gradient check): they must be cleared first
    r = observe(P.run_train, setting="lecture", epochs=5, stale=True)
    losses = expect_array(r["losses"], "train must return the list of losses")
    assert losses.shape == (5,), "train must record one loss per epoch"
    assert_close(losses, lecture_losses(5), (
        "gradients left in p.grad before training changed the run: call opt.reset_grad() at the start of every "
        "epoch, before loss.backward() (backward accumulates into p.grad)"
    ), rtol=1e-5, atol=0)
