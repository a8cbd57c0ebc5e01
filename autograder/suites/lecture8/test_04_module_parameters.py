"""Hidden tests for 04_module_parameters (Tasks 4.1 to 4.3)."""
import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

import needle as ndl
from autograder.suite import HYPOTHESIS, assert_close, expect_array, graded, load_probes
from needle.gradcheck import central_differences

P = load_probes(__file__)

# Needle's own implementation of each task: a task answered with it (calling it, an alias,
# a subclass of its class) scores nothing. needle's Tensor and ops, and your own earlier
# tasks, stay allowed.
OWN_WORK = {
    "4.1": ("Parameter and Module", ["needle.nn.Parameter", "needle.nn.Module", "needle.nn._walk", "needle.nn._walk_dict"]),
    "4.2": ("ScaleAdd and MultiPathScaleAdd", ["needle.models"]),
    "4.3": ("L2Loss", ["needle.nn.L2Loss"]),
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
    num = central_differences(lambda t: t[0] * x + t[1], [s, b])
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
        num = central_differences(lambda t: (t[0] * xs + t[1] + t[2] * xs + t[3] - ys) ** 2, theta)
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
    num = central_differences(lambda t: np.sum(w.ravel() * (t[:6] - t[6:]) ** 2), theta)
    assert_close(np.concatenate([r["gx"].ravel(), r["gy"].ravel()]), num,
                 "L2Loss's gradients disagree with finite differences", rtol=1e-4, atol=1e-4)
