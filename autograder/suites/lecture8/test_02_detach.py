"""Hidden tests for 02_detach (Tasks 2.1 and 2.2)."""
import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from autograder.suite import HYPOTHESIS, assert_close, expect_array, graded, load_probes

P = load_probes(__file__)

# Needle's own implementation of each task: a task answered with it scores nothing.
# Tensor.make_const, realize_cached_data and the .data setter stay allowed.
OWN_WORK = {
    "2.1": ("detach", ["needle.autograd.Tensor.detach", "needle.autograd.TensorTuple.detach", "needle.autograd.Tensor.data"]),
    "2.2": ("sgd_update", ["needle.optim"]),
}


KINDS = ("leaf", "nonleaf", "const")
REBIND_HINT = " (if w is unchanged: `w = ...` inside the function only rebinds a local name; assign to w.data)"


def detach_reference(kind, shape, seed, dtype="float32"):
    """The values detach(t) must show: those of t itself (x, or 3x + 1)."""
    t, _ = P.make_tensor(kind, shape, seed, dtype)
    return t.numpy().copy()


# --- Task 2.1: detach -------------------------------------------------------------------------


@graded("2.1", points=2)
def test_detach_shares_cached_data(observe):
    """detach shares the very same cached_data array (no copy)"""
    for kind, shape, seed in (("leaf", (4,), 11), ("nonleaf", (2, 3), 12), ("const", (3, 1), 13)):
        f = observe(P.detach_facts, kind=kind, shape=shape, seed=seed)
        assert f["is_tensor"], "detach must return a needle Tensor"
        assert f["shares"], (
            f"detach of a {kind.replace('nonleaf', 'non-leaf')} tensor copied the data: the result's cached_data must be "
            "the very same array object as t's (Tensor.make_const shares it; ndl.Tensor(...) copies)"
        )


@graded("2.1", points=2)
def test_detach_returns_new_leaf(observe):
    """detach returns a new leaf: op None, no inputs, no grad"""
    for kind, shape, seed in (("leaf", (3,), 21), ("nonleaf", (2, 2), 22)):
        f = observe(P.detach_facts, kind=kind, shape=shape, seed=seed)
        assert f["is_tensor"], "detach must return a needle Tensor"
        assert not f["same_object"], "detach returned t itself: it must return a NEW Tensor and leave t as it is"
        assert f["op_none"], "the detached tensor still has an op: it must be a leaf (op is None)"
        assert f["inputs_empty"], "the detached tensor still has inputs: a leaf has inputs == () (an empty tuple)"
        assert f["grad_none"], "the detached tensor carries a .grad: a fresh leaf starts with grad None"


@graded("2.1", points=1)
def test_detach_requires_no_grad(observe):
    """detach's result has requires_grad False"""
    for kind, shape, seed in (("leaf", (5,), 31), ("nonleaf", (3,), 32)):
        f = observe(P.detach_facts, kind=kind, shape=shape, seed=seed)
        assert f["is_tensor"], "detach must return a needle Tensor"
        assert f["requires_grad_false"], (
            "the detached tensor has requires_grad True (or not a bool): a detached tensor is a constant, "
            "requires_grad must be False whatever t's was"
        )


@graded("2.1", points=2)
def test_detach_leaves_original_untouched(observe):
    """detach leaves t unchanged: its graph, requires_grad and data"""
    # t = 3x + 1: after detach, t.sum().backward() still gives x.grad = 3 everywhere
    # (d(3x+1)/dx = 3); for a leaf t = x, d(sum x)/dx = 1.
    for kind, shape, seed, slope in (("nonleaf", (2, 3), 41, 3.0), ("leaf", (4,), 42, 1.0)):
        f = observe(P.detach_facts, kind=kind, shape=shape, seed=seed)
        assert f["t_op_same"] and f["t_inputs_same"], (
            "detach changed t's op or inputs: t must keep its graph (build a new Tensor, do not cut t loose)"
        )
        assert f["t_requires_grad_same"], "detach changed t.requires_grad: only the new tensor has requires_grad False"
        assert f["t_array_same"], "detach replaced t's cached_data: t must keep its own array"
        assert_close(f["t_value"], detach_reference(kind, shape, seed), "detach changed the values of t")
        assert f["x_grad"] is not None, "after detach, backward() through t no longer works: t must keep its graph"
        assert_close(f["x_grad"], np.full(shape, slope), "after detach, backward() through t gives wrong gradients")


@graded("2.1", points=1)
@settings(max_examples=20, **HYPOTHESIS)
@given(
    kind=st.sampled_from(KINDS),
    shape=st.lists(st.integers(1, 4), min_size=1, max_size=3),
    seed=st.integers(0, 10_000),
    dtype=st.sampled_from(["float32", "float64"]),
)
def test_detach_values_and_dtype(observe, kind, shape, seed, dtype):
    """detach keeps the values, shape and dtype"""
    f = observe(P.detach_facts, kind=kind, shape=shape, seed=seed, dtype=dtype)
    assert f["is_tensor"], "detach must return a needle Tensor"
    value = expect_array(f["value"], "the detached tensor has no numpy array in cached_data", shape=shape)
    assert value.dtype == np.dtype(dtype), "detach changed the dtype: share t's array, do not convert it"
    assert_close(value, detach_reference(kind, shape, seed, dtype), "the detached tensor's values differ from t's")


@graded("2.1", points=1)
def test_detach_realizes_lazy_tensor(observe):
    """detach of a lazily built tensor computes and shares its data"""
    f = observe(P.detach_lazy, shape=(3, 2), seed=51)
    assert f["is_tensor"] and f["op_none"], "in lazy mode too, detach must return a new leaf Tensor"
    assert f["has_array"], (
        "in lazy mode the detached tensor has no data: t.cached_data is None until computed, "
        "take t.realize_cached_data() instead"
    )
    assert f["shares"], "in lazy mode the detached tensor must share t's (realized) array, not a copy"
    assert_close(f["value"], detach_reference("nonleaf", (3, 2), 51), "the detached lazy tensor has wrong values")


# --- Task 2.2: sgd_update ---------------------------------------------------------------------


def update_reference(shape, seed, lr, dtype="float32", grad_kind="const"):
    """w - lr * grad in float64, from the same inputs the probe builds."""
    w = P.array(shape, seed, dtype).astype(np.float64)
    g = P.grad_values(grad_kind, shape, seed + 1, dtype).astype(np.float64)
    return w - lr * g


@graded("2.2", points=2)
def test_sgd_update_value(observe):
    """sgd_update computes w - lr * grad (float32, several shapes)"""
    for shape, seed, lr in (((3,), 101, 0.1), ((2, 4), 102, 0.5), ((3, 1, 2), 103, 1e-3), ((1,), 104, 2.0)):
        f = observe(P.update_once, shape=shape, seed=seed, lr=lr)
        value = expect_array(f["value"], "after sgd_update, w has no numpy array in its data", shape=shape)
        assert_close(
            value, update_reference(shape, seed, lr),
            "w does not hold w - lr * grad after sgd_update" + REBIND_HINT,
        )
        assert value.dtype == np.float32, "sgd_update changed w's dtype: keep float32 (multiply by a Python float)"


@graded("2.2", points=1)
def test_sgd_update_keeps_float64(observe):
    """sgd_update keeps a float64 weight float64"""
    f = observe(P.update_once, shape=(2, 3), seed=111, lr=0.25, dtype="float64")
    value = expect_array(f["value"], "after sgd_update, w has no numpy array in its data", shape=(2, 3))
    assert value.dtype == np.float64, (
        "a float64 weight came back with another dtype: compute on w.data and grad.data and keep their dtype "
        "(ndl.Tensor(...) makes float32 unless told otherwise)"
    )
    assert_close(value, update_reference((2, 3), 111, 0.25, "float64"), "w does not hold w - lr * grad" + REBIND_HINT, rtol=1e-12, atol=1e-12)


@graded("2.2", points=1)
def test_sgd_update_returns_none(observe):
    """sgd_update returns None (it works in place)"""
    assert observe(P.update_once, shape=(4,), seed=121, lr=0.1)["returned_none"] is True, (
        "sgd_update returned something: it updates w in place and returns None (like optimizer.step())"
    )
    assert observe(P.update_references, shape=(2, 2), seed=122, lr=0.1)["returned_none"] is True, (
        "sgd_update returned something: it updates w in place and returns None"
    )


@graded("2.2", points=2)
def test_sgd_update_keeps_references(observe):
    """a list, a dict and a Module holding w see the update"""
    shape, seed, lr = (3, 2), 131, 0.3
    f = observe(P.update_references, shape=shape, seed=seed, lr=lr)
    assert f["list_same_object"] and f["dict_same_object"] and f["model_same_object"], (
        "after sgd_update the list, dict or Module no longer holds the same parameter object"
    )
    want = update_reference(shape, seed, lr)
    for where in ("list", "dict", "model"):
        got = expect_array(f[f"{where}_value"], f"the parameter seen through the {where} has no numpy array", shape=shape)
        assert_close(
            got, want,
            f"the parameter seen through the {where} (as an optimizer sees it) does not hold w - lr * grad: "
            "update the object in place with w.data = ..., rebinding w inside the function changes nothing outside",
        )


@graded("2.2", points=1)
def test_sgd_update_leaf_stays_leaf(observe):
    """after sgd_update, w is still a leaf (op None, no inputs)"""
    f = observe(P.update_once, shape=(5,), seed=141, lr=0.1)
    assert f["same_object"], "sgd_update must not replace w"
    assert f["op_none"], "w.op is not None after sgd_update: update through w.data, not w = w - lr * grad"
    assert f["inputs_empty"], "w.inputs is not empty after sgd_update: w must stay a leaf (inputs == ())"
    assert f["node_count"] == 1, "w's graph has more than one node after sgd_update: the update must build no graph"


@graded("2.2", points=2)
def test_sgd_update_no_graph_after_many_steps(observe):
    """w's graph stays one node after 10,000 updates"""
    steps, shape, seed, lr = 10_000, (2, 3), 151, 1e-4
    f = observe(P.update_many, steps=steps, shape=shape, seed=seed, lr=lr)
    assert f["node_count"] == 1 and f["op_none"], (
        "w's graph grew over many updates: each update must replace w's data, not chain new ops onto w"
    )
    assert f["same_object"], "after many updates, a dict holding w no longer holds the same object"
    # Reference: the same float32 arithmetic, step by step (float32 rounding accumulates).
    w = P.array(shape, seed).copy()
    g = P.grad_values("const", shape, seed + 1)
    for _ in range(steps):
        w = w - np.float32(lr) * g
    value = expect_array(f["value"], "after many updates, w has no numpy array in its data", shape=shape)
    assert_close(value, w, "after many updates w does not hold w - steps * lr * grad" + REBIND_HINT, rtol=1e-3, atol=1e-3)


@graded("2.2", points=1)
def test_sgd_update_keeps_requires_grad(observe):
    """w still requires grad after sgd_update"""
    f = observe(P.update_once, shape=(2, 2), seed=161, lr=0.1)
    assert f["requires_grad_true"], (
        "w.requires_grad is no longer True after sgd_update: the parameter must stay trainable "
        "(change only its data)"
    )
    f = observe(P.update_many, steps=20, shape=(3,), seed=162, lr=0.1)
    assert f["requires_grad_true"], "w.requires_grad is no longer True after several updates"


@graded("2.2", points=1)
def test_sgd_update_leaves_grad_unchanged(observe):
    """sgd_update does not modify grad"""
    for grad_kind, seed in (("const", 171), ("nonleaf", 172)):
        shape = (2, 3)
        f = observe(P.update_once, shape=shape, seed=seed, lr=0.5, grad_kind=grad_kind)
        want = P.grad_values(grad_kind, shape, seed + 1)
        assert_close(f["grad_value"], want, "sgd_update changed grad's values: read grad, never write to it")
        assert_close(f["grad_array_now"], want, "sgd_update wrote into grad's array: compute a new array instead")
        assert f["grad_graph_same"], "sgd_update changed grad's op, inputs or requires_grad"


@graded("2.2", points=1)
def test_sgd_update_grad_requires_grad(observe):
    """sgd_update with a grad that requires grad still builds no graph"""
    for grad_kind, seed in (("leaf", 181), ("nonleaf", 182)):
        shape, lr = (4, 2), 0.2
        f = observe(P.update_once, shape=shape, seed=seed, lr=lr, grad_kind=grad_kind)
        assert f["op_none"] and f["node_count"] == 1, (
            "w got a graph when grad requires grad: assign to w.data (the setter keeps only the values), "
            "or use grad.data so that no input needs a gradient"
        )
        assert f["requires_grad_true"], "w.requires_grad is no longer True after sgd_update"
        assert_close(f["value"], update_reference(shape, seed, lr, grad_kind=grad_kind), "w does not hold w - lr * grad" + REBIND_HINT)
        m = observe(P.update_many, steps=50, shape=shape, seed=seed, lr=lr, grad_kind=grad_kind)
        assert m["node_count"] == 1, "w's graph grew over updates with a grad that requires grad"
