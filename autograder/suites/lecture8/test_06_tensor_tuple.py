"""Hidden tests for 06_tensor_tuple (Tasks 5.1 and 5.2)."""
import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from autograder.suite import HYPOTHESIS, assert_close, expect_array, graded, load_probes
from needle.gradcheck import central_differences

P = load_probes(__file__)

# Needle's own implementation of each task: a task answered with it scores nothing.
# needle's TensorTupleOp, make_tuple, TupleGetItem and other ops stay allowed.
OWN_WORK = {
    "6.1": ("FusedAddScalars", ["needle.ops.tuple.FusedAddScalars", "needle.ops.tuple.fused_add_scalars"]),
    "6.2": ("FusedAddScalars.gradient", ["needle.ops.tuple.FusedAddScalars", "needle.ops.tuple.fused_add_scalars"]),
}

SETTINGS = settings(max_examples=25, **HYPOTHESIS)

GRAD_KIND_ADVICE = {
    "tensortuple": "the gradient is a TensorTuple: return the adjoint of the single input a, one Tensor (out_grad[0] + out_grad[1]), not the tuple of adjoints",
    "tuple": "the gradient returned several entries: FusedAddScalars has one input, so return one Tensor, the sum of the two slot adjoints",
    "list": "the gradient returned several entries: FusedAddScalars has one input, so return one Tensor, the sum of the two slot adjoints",
    "none": "a has no gradient after backward: gradient must return the adjoint of a as a needle Tensor",
    "ndarray": "the gradient is a numpy array: return a needle Tensor built with needle ops on out_grad",
    "other": "the gradient must be a needle Tensor (built with needle ops on out_grad)",
}


def expect_grad(value, message: str, shape) -> np.ndarray:
    """A gradient report from a probe: an array of ``shape``, or a word naming the wrong type."""
    if isinstance(value, str):
        raise AssertionError(GRAD_KIND_ADVICE.get(value, GRAD_KIND_ADVICE["other"]))
    return expect_array(value, message, shape)


def rng(seed: int) -> np.random.Generator:
    """A fixed generator per test: results do not depend on which tests run."""
    return np.random.default_rng(seed)


SHAPES_AND_CONSTANTS = [((3,), 1.5, -2.0), ((2, 3), 0.0, 10.0), ((2, 3, 4), -0.25, 0.75), ((1,), 3.0, 3.0)]


# --- Task 6.1: compute and fused_add_scalars ----------------------------------------------------


@graded("6.1", points=2)
def test_compute_values(observe):
    """compute returns a + c0 and a + c1 for several shapes and constants"""
    r = rng(51)
    for shape, c0, c1 in SHAPES_AND_CONSTANTS:
        a = r.standard_normal(shape).astype(np.float32)
        out = observe(P.compute_result, a=a, c0=c0, c1=c1)
        assert out["items"] is not None and out["len"] == 2, (
            "compute must return the two results (a + c0, a + c1), one per output"
        )
        assert out["input_unchanged"], "compute changed its input array: return new arrays (a + c0), do not add in place"
        assert_close(out["items"][0], a.astype(np.float64) + c0, "the first output of compute must be a + c0", rtol=1e-6, atol=1e-6)
        assert_close(out["items"][1], a.astype(np.float64) + c1, "the second output of compute must be a + c1", rtol=1e-6, atol=1e-6)


@graded("6.1", points=1)
def test_compute_returns_tuple_of_arrays(observe):
    """compute returns a Python tuple of two numpy arrays"""
    out = observe(P.compute_result, a=np.arange(6, dtype=np.float32).reshape(2, 3), c0=1.0, c1=-1.0)
    assert out["kind"] != "ndarray", (
        "compute returned one (stacked) array: a TensorTuple's value is a Python tuple of arrays, return (a + c0, a + c1)"
    )
    assert out["kind"] == "tuple", "compute must return a Python tuple (a + c0, a + c1), not a list or another container"
    assert out["len"] == 2 and out["all_arrays"], "compute must return a tuple of exactly two numpy arrays"


@graded("6.1", points=1)
def test_compute_keeps_dtype(observe):
    """compute keeps the input's dtype (float32 stays float32, float64 stays float64)"""
    for dtype in (np.float32, np.float64):
        out = observe(P.compute_result, a=np.linspace(-1, 1, 5).astype(dtype), c0=0.1, c1=2.5)
        assert out["items"] is not None and len(out["items"]) == 2, "compute must return the two results (a + c0, a + c1)"
        for item in out["items"]:
            assert isinstance(item, np.ndarray) and item.dtype == dtype, (
                "compute changed the dtype of the data: add the Python scalars directly (a + self.c0), "
                "numpy then keeps float32; do not build float64 arrays or numpy float64 scalars"
            )


@graded("6.1", points=1)
def test_fused_add_scalars_makes_one_tensortuple_node(observe):
    """fused_add_scalars returns a TensorTuple made by your FusedAddScalars"""
    out = observe(P.fused_result, a=np.array([1.0, 2.0, 3.0], dtype=np.float32), c0=0.5, c1=-4.0)
    assert out["kind"] == "tensortuple", (
        "fused_add_scalars must return FusedAddScalars(c0, c1)(a), one needle TensorTuple node, "
        "not a Python tuple of Tensors or a single Tensor"
    )
    assert out["op_is_own"], "the TensorTuple's op must be an instance of your FusedAddScalars class (call FusedAddScalars(c0, c1)(a))"
    assert out["input_is_a"], "the TensorTuple's only input must be a itself: apply the op to a"
    assert out["len"] == 2, "fused_add_scalars must give a TensorTuple of length 2"


@graded("6.1", points=1)
def test_fused_add_scalars_values_by_indexing(observe):
    """t[0] and t[1] of fused_add_scalars(a, c0, c1) hold a + c0 and a + c1"""
    r = rng(52)
    for shape, c0, c1 in SHAPES_AND_CONSTANTS[:3]:
        a = r.standard_normal(shape).astype(np.float32)
        out = observe(P.fused_result, a=a, c0=c0, c1=c1)
        assert out["kind"] == "tensortuple" and out["items"] is not None and len(out["items"]) == 2, (
            "fused_add_scalars must return a TensorTuple of the two results"
        )
        assert out["items_are_getitem"], "indexing the result must go through needle's TupleGetItem (return a TensorTuple)"
        assert_close(out["items"][0], a.astype(np.float64) + c0, "t[0] must be a + c0", rtol=1e-6, atol=1e-6)
        assert_close(out["items"][1], a.astype(np.float64) + c1, "t[1] must be a + c1", rtol=1e-6, atol=1e-6)
        assert all(v.dtype == np.float32 for v in out["items"]), "fused_add_scalars changed float32 data to another dtype"


# --- Task 6.2: gradient ------------------------------------------------------------------------


@graded("6.2", points=1)
def test_gradient_returns_one_tensor(observe):
    """gradient returns one Tensor of a's shape (the adjoint of the single input)"""
    a = np.arange(12.0).reshape(3, 4)
    value = observe(P.direct_gradient, a=a, g0=np.ones((3, 4)), g1=np.full((3, 4), 2.0), c0=1.0, c1=2.0)
    expect_grad(value, "gradient must return one Tensor with the shape of a", (3, 4))


@graded("6.2", points=1)
def test_gradient_sums_the_two_adjoints(observe):
    """gradient of given slot adjoints (g0, g1) is g0 + g1"""

    @SETTINGS
    @given(
        shape=hnp.array_shapes(min_dims=1, max_dims=3, min_side=1, max_side=4),
        seed=st.integers(0, 2**16),
        c0=st.floats(-5, 5), c1=st.floats(-5, 5),
    )
    def prop(shape, seed, c0, c1):
        rng = np.random.default_rng(seed)
        a, g0, g1 = (rng.standard_normal(shape) for _ in range(3))
        value = observe(P.direct_gradient, a=a, g0=g0, g1=g1, c0=c0, c1=c1)
        got = expect_grad(value, "gradient must return one Tensor with the shape of a", shape)
        # d(a + c0)/da = d(a + c1)/da = identity, so the adjoint of a is g0 * 1 + g1 * 1
        assert_close(got, g0 + g1, "the adjoint of a is out_grad[0] + out_grad[1] (both slots, added: each Jacobian is the identity)", rtol=1e-7, atol=1e-9)

    prop()


@graded("6.2", points=2)
def test_gradient_of_product_by_hand(observe):
    """gradient of sum(t[0] * t[1]) checked by hand"""
    # L = sum(t0 * t1) = sum((a + c0)(a + c1))
    # dL/da = (a + c1) + (a + c0) = 2a + c0 + c1   (product rule; both slots contribute)
    # a = (1, -2, 0.5), c0 = 3, c1 = -1:  2a + 2 = (4, -2, 3)
    value = observe(P.loss_gradient, graph="product", x=np.array([1.0, -2.0, 0.5]), c0=3.0, c1=-1.0)
    got = expect_grad(value, "the gradient of a must have a's shape", (3,))
    assert_close(got, [4.0, -2.0, 3.0], "d/da sum((a + c0)(a + c1)) = 2a + c0 + c1: add the adjoints of both slots", rtol=1e-9, atol=1e-9)
    # float32 input: same values, and the gradient stays float32
    value = observe(P.loss_gradient, graph="product", x=np.array([1.0, -2.0, 0.5]), c0=3.0, c1=-1.0, dtype="float32")
    got = expect_grad(value, "the gradient of a must have a's shape", (3,))
    assert got.dtype == np.float32, "the gradient of float32 data must stay float32: build it with needle ops on out_grad"
    assert_close(got, [4.0, -2.0, 3.0], "d/da sum((a + c0)(a + c1)) = 2a + c0 + c1 (float32 input)")


@graded("6.2", points=2)
def test_gradient_through_one_slot_only(observe):
    """gradient when only t[0] or only t[1] is used (the other slot's adjoint is zeros)"""
    r = rng(53)
    x = r.standard_normal((2, 3))
    w = r.standard_normal((2, 3))
    # L = sum(w * t1) = sum(w * (a + c1)): dL/da = w; TupleGetItem put zeros in slot 0
    value = observe(P.loss_gradient, graph="weighted", x=x, c0=0.5, c1=-1.5, w1=w)
    got = expect_grad(value, "the gradient of a must have a's shape", (2, 3))
    assert_close(got, w, "only t[1] is used: out_grad[0] is zeros, out_grad[1] holds the adjoint, and a's gradient must include out_grad[1] (add the slots)", rtol=1e-9, atol=1e-9)
    # L = sum(w * t0): dL/da = w; slot 1 holds zeros
    value = observe(P.loss_gradient, graph="weighted", x=x, c0=0.5, c1=-1.5, w0=w)
    got = expect_grad(value, "the gradient of a must have a's shape", (2, 3))
    assert_close(got, w, "only t[0] is used: out_grad[1] is zeros and a's gradient must be out_grad[0] + out_grad[1] = out_grad[0]", rtol=1e-9, atol=1e-9)


@graded("6.2", points=2)
def test_gradient_slots_used_several_times(observe):
    """gradient when the slots are used several times (checked by central differences)"""
    r = rng(54)
    x = r.standard_normal((3, 2))
    w0, w1 = r.standard_normal((3, 2)), r.standard_normal((3, 2))
    c0, c1 = 0.7, -1.2

    def loss(a):  # the math of P.build_loss("reuse"): u = t0 used twice, t0 indexed again, t1 twice
        p, q = a + c0, a + c1
        return np.sum(p * p * w0) + np.sum(p * q) + np.sum(q * w1)

    want = central_differences(loss, x)
    value = observe(P.loss_gradient, graph="reuse", x=x, c0=c0, c1=c1, w0=w0, w1=w1)
    got = expect_grad(value, "the gradient of a must have a's shape", x.shape)
    assert_close(got, want, "wrong gradient when t[0] and t[1] are used several times: return out_grad[0] + out_grad[1] (backward already summed each slot's uses)", rtol=1e-5, atol=1e-6)


@graded("6.2", points=1)
def test_gradient_composed_with_other_ops(observe):
    """gradient through a chain: matmul, exp, two fused ops, log (central differences)"""
    r = rng(55)
    x = r.standard_normal((2, 3)) * 0.5
    W = r.standard_normal((3, 4)) * 0.5
    w0 = r.standard_normal((2, 4))
    c0, c1, c2, c3 = -0.3, 0.4, 1.1, -0.6

    def loss(xv):  # the math of P.build_loss("composed")
        h = xv @ W
        a = np.exp(0.5 * h)
        p, q = a + c0, a + c1
        s0, s1 = p + c2, p + c3
        return np.sum(s0 * s1 * w0) + np.sum(np.log(q)) + np.sum(h * h)

    want = central_differences(loss, x)
    value = observe(P.loss_gradient, graph="composed", x=x, c0=c0, c1=c1, c2=c2, c3=c3, w0=w0, w1=W)
    got = expect_grad(value, "the gradient of x must have x's shape", x.shape)
    assert_close(got, want, "wrong gradient when FusedAddScalars sits inside a larger graph (or is applied twice): return out_grad[0] + out_grad[1]", rtol=1e-5, atol=1e-6)


@graded("6.2", points=1)
def test_gradient_is_differentiable(observe):
    """the gradient is built from needle ops (backward(create_graph=True) can differentiate it)"""
    # g = dL/da for L = sum(t0 * t1) is 2a + c0 + c1, so d(sum g)/da = 2 everywhere
    value = observe(P.second_order, x=np.array([0.5, -1.0, 2.0, 0.0]), c0=1.0, c1=-3.0)
    if isinstance(value, str) and value == "detached":
        raise AssertionError(
            "the gradient has no graph: build it with needle ops on out_grad (out_grad[0] + out_grad[1]), "
            "not by computing in numpy and wrapping the result in a new Tensor"
        )
    got = expect_grad(value, "the second derivative must have a's shape", (4,))
    assert_close(got, [2.0, 2.0, 2.0, 2.0], (
        "wrong derivative of your gradient: it must be out_grad[0] + out_grad[1], built with needle ops on out_grad "
        "so that backward(create_graph=True) can differentiate it again"
    ), rtol=1e-9, atol=1e-9)
