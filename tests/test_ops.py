"""Every op: forward against numpy, gradient against float64 central differences over all
elements (needle.gradcheck contracts the output with a fixed random tensor)."""
import numpy as np
import pytest

import needle as ndl
from needle import ops
from needle.gradcheck import gradcheck

rng = np.random.default_rng(0)


def randn(*shape):
    return rng.standard_normal(shape)


def positive(*shape):
    return rng.uniform(0.5, 2.0, shape)


def away_from_zero(*shape):
    """Values with |x| >= 0.3, where relu's kink cannot fall inside a difference step."""
    x = rng.uniform(0.3, 2.0, shape)
    return x * rng.choice([-1.0, 1.0], shape)


def _np_lse(x, axes):
    m = np.max(x, axis=axes, keepdims=True)
    return np.squeeze(np.log(np.sum(np.exp(x - m), axis=axes, keepdims=True)) + m, axis=axes)


CONST_A, CONST_B = randn(3, 4), randn(4, 5)
CONST_EXP, CONST_BASE = randn(2, 3), positive(2, 3)

# (id, needle function, numpy reference, input arrays)
CASES = [
    ("add", ops.add, np.add, [randn(3, 4), randn(3, 4)]),
    ("add_scalar", lambda a: ops.add_scalar(a, 1.5), lambda a: a + 1.5, [randn(3, 4)]),
    ("multiply", ops.multiply, np.multiply, [randn(2, 3), randn(2, 3)]),
    ("mul_scalar", lambda a: ops.mul_scalar(a, -2.5), lambda a: a * -2.5, [randn(5)]),
    ("power", ops.power, np.power, [positive(2, 3), randn(2, 3)]),
    ("power_scalar", lambda a: ops.power_scalar(a, 3), lambda a: a**3, [randn(2, 3)]),
    ("power_scalar_frac", lambda a: ops.power_scalar(a, -0.5), lambda a: a**-0.5, [positive(4)]),
    ("power_scalar_zero", lambda a: ops.power_scalar(a, 0), lambda a: a**0, [np.array([0.0, 1.0, -2.0])]),
    ("divide", ops.divide, np.divide, [randn(3, 2), positive(3, 2)]),
    ("divide_scalar", lambda a: ops.divide_scalar(a, 4.0), lambda a: a / 4.0, [randn(3, 2)]),
    ("negate", ops.negate, np.negative, [randn(2, 2, 2)]),
    ("matmul", ops.matmul, np.matmul, [randn(3, 4), randn(4, 5)]),
    ("matmul_batched", ops.matmul, np.matmul, [randn(2, 3, 4), randn(2, 4, 2)]),
    ("matmul_broadcast_batch", ops.matmul, np.matmul, [randn(2, 3, 4), randn(4, 2)]),
    # a batch axis of size 1 broadcast against 2: its adjoint sums over that axis, keeping it
    ("matmul_size1_batch", ops.matmul, np.matmul, [randn(1, 3, 4), randn(2, 4, 5)]),
    # a constant operand (requires_grad False): the other's adjoint alone, through the op's own branch
    ("matmul_constant_right", lambda a: ops.matmul(a, ndl.Tensor(CONST_B, dtype=a.dtype, requires_grad=False)),
     lambda a: a @ CONST_B, [randn(3, 4)]),
    ("matmul_constant_left", lambda b: ops.matmul(ndl.Tensor(CONST_A, dtype=b.dtype, requires_grad=False), b),
     lambda b: CONST_A @ b, [randn(4, 5)]),
    ("power_constant_exponent", lambda a: ops.power(a, ndl.Tensor(CONST_EXP, dtype=a.dtype, requires_grad=False)),
     lambda a: np.power(a, CONST_EXP), [positive(2, 3)]),
    ("power_constant_base", lambda b: ops.power(ndl.Tensor(CONST_BASE, dtype=b.dtype, requires_grad=False), b),
     lambda b: np.power(CONST_BASE, b), [randn(2, 3)]),
    ("summation_all", ops.summation, np.sum, [randn(3, 4)]),
    ("summation_axis0", lambda a: ops.summation(a, (0,)), lambda a: a.sum(axis=0), [randn(3, 4)]),
    ("summation_axis_int", lambda a: ops.summation(a, 1), lambda a: a.sum(axis=1), [randn(3, 4, 2)]),
    ("summation_axes02", lambda a: ops.summation(a, (0, 2)), lambda a: a.sum(axis=(0, 2)), [randn(3, 4, 2)]),
    ("summation_negative_axis", lambda a: ops.summation(a, (-1,)), lambda a: a.sum(axis=-1), [randn(3, 4)]),
    ("summation_keepdims", lambda a: ops.summation(a, (1,), keepdims=True), lambda a: a.sum(axis=1, keepdims=True), [randn(3, 4)]),
    ("summation_keepdims_all", lambda a: ops.summation(a, keepdims=True), lambda a: a.sum(keepdims=True), [randn(3, 4)]),
    ("summation_keepdims_axes02", lambda a: ops.summation(a, (0, 2), keepdims=True), lambda a: a.sum(axis=(0, 2), keepdims=True), [randn(3, 4, 2)]),
    ("broadcast_to_rows", lambda a: ops.broadcast_to(a, (4, 3)), lambda a: np.broadcast_to(a, (4, 3)), [randn(1, 3)]),
    ("broadcast_to_cols", lambda a: ops.broadcast_to(a, (3, 5)), lambda a: np.broadcast_to(a, (3, 5)), [randn(3, 1)]),
    ("broadcast_to_new_axes", lambda a: ops.broadcast_to(a, (2, 4, 3)), lambda a: np.broadcast_to(a, (2, 4, 3)), [randn(3)]),
    ("broadcast_to_mixed", lambda a: ops.broadcast_to(a, (2, 3, 4)), lambda a: np.broadcast_to(a, (2, 3, 4)), [randn(3, 1)]),
    ("broadcast_to_same", lambda a: ops.broadcast_to(a, (2, 3)), lambda a: a, [randn(2, 3)]),
    ("reshape", lambda a: ops.reshape(a, (4, 3)), lambda a: a.reshape(4, 3), [randn(2, 6)]),
    ("reshape_flat", lambda a: ops.reshape(a, (24,)), lambda a: a.reshape(24), [randn(2, 3, 4)]),
    ("transpose_default", ops.transpose, lambda a: np.swapaxes(a, -1, -2), [randn(3, 4)]),
    ("transpose_last_two_3d", ops.transpose, lambda a: np.swapaxes(a, -1, -2), [randn(2, 3, 4)]),
    ("transpose_pair", lambda a: ops.transpose(a, (0, 2)), lambda a: np.swapaxes(a, 0, 2), [randn(2, 3, 4)]),
    ("exp", ops.exp, np.exp, [randn(3, 4)]),
    ("log", ops.log, np.log, [positive(3, 4)]),
    ("relu", ops.relu, lambda a: np.maximum(a, 0), [away_from_zero(4, 5)]),
    ("logsumexp_all", ops.logsumexp, lambda a: _np_lse(a, None), [randn(3, 4)]),
    ("logsumexp_axis1", lambda a: ops.logsumexp(a, (1,)), lambda a: _np_lse(a, (1,)), [randn(3, 4)]),
    ("logsumexp_axis0", lambda a: ops.logsumexp(a, (0,)), lambda a: _np_lse(a, (0,)), [randn(3, 4)]),
    ("logsumexp_3d", lambda a: ops.logsumexp(a, (0, 2)), lambda a: _np_lse(a, (0, 2)), [randn(2, 3, 4)]),
    ("logsumexp_large", lambda a: ops.logsumexp(a, (1,)), lambda a: _np_lse(a, (1,)), [randn(2, 3) * 50 + 1000]),
    ("logsoftmax", ops.logsoftmax, lambda a: a - _np_lse(a, (1,))[:, None], [randn(3, 5)]),
    ("logsoftmax_axis0", lambda a: ops.logsoftmax(a, (0,)), lambda a: a - _np_lse(a, (0,))[None, :], [randn(3, 5)]),
    # g - exp(y) * sum(g over axes): logsoftmax's gradient, an op whose own gradient second derivatives use
    ("logsoftmax_backward", ops.logsoftmax_backward, lambda g, y: g - np.exp(y) * g.sum(axis=-1, keepdims=True), [randn(3, 5), randn(3, 5)]),
    ("logsoftmax_backward_axis0", lambda g, y: ops.logsoftmax_backward(g, y, (0,)), lambda g, y: g - np.exp(y) * g.sum(axis=0, keepdims=True), [randn(3, 5), randn(3, 5)]),
    ("logsoftmax_backward_3d", lambda g, y: ops.logsoftmax_backward(g, y, (0, 2)), lambda g, y: g - np.exp(y) * g.sum(axis=(0, 2), keepdims=True), [randn(2, 3, 4), randn(2, 3, 4)]),
]


@pytest.mark.parametrize("name, fn, ref, arrays", CASES, ids=[c[0] for c in CASES])
def test_forward_matches_numpy(name, fn, ref, arrays):
    out = fn(*[ndl.Tensor(a, dtype="float64") for a in arrays])
    np.testing.assert_allclose(out.numpy(), ref(*arrays), rtol=1e-12, atol=1e-12)
    assert out.dtype == np.float64


@pytest.mark.parametrize("name, fn, ref, arrays", CASES, ids=[c[0] for c in CASES])
def test_gradient_matches_central_differences(name, fn, ref, arrays):
    gradcheck(fn, *arrays)


@pytest.mark.parametrize("name, fn, ref, arrays", CASES, ids=[c[0] for c in CASES])
def test_float32_stays_float32(name, fn, ref, arrays):
    inputs = [ndl.Tensor(a) for a in arrays]
    out = fn(*inputs)
    assert out.dtype == np.float32, f"{name} promoted float32 to {out.dtype}"
    out.backward(ndl.Tensor(np.ones(out.shape), requires_grad=False))
    for x in inputs:
        assert x.grad is not None and x.grad.dtype == np.float32


def test_relu_keeps_nan_zeroes_negative_infinity_and_masks_its_gradient():
    # relu compares against an array of zeros (numpy's quick loop); values are np.maximum(a, 0)'s
    a = np.array([[np.nan, -np.inf, np.inf, -2.0], [0.0, 3.0, -0.5, 1e-30]], np.float32)
    x = ndl.Tensor(a, requires_grad=True)
    y = ops.relu(x)
    np.testing.assert_array_equal(y.numpy(), np.maximum(a, 0))
    assert y.dtype == np.float32 and y.numpy().flags.writeable
    y.sum().backward()  # d relu / da = 1 where the output is > 0 (the mask), else 0
    np.testing.assert_array_equal(x.grad.numpy(), [[0, 0, 1, 0], [0, 1, 0, 1]])


def test_composite_expression_gradient():
    """A small network-like expression mixing many ops and reusing inputs."""

    def f(x, w, b):
        h = ops.relu(x @ w + ops.broadcast_to(b, (4, 3)))
        return ops.logsumexp(h * h / 3.0 - h, (1,)) + ops.summation(ops.exp(-h), (1,))

    gradcheck(f, away_from_zero(4, 2), randn(2, 3), randn(1, 3) + 2.0)


def test_matmul_gradient_by_hand():
    # L = sum(C * (A @ B)) = sum_ijk C_ik A_ij B_jk, so dL/dA_ij = sum_k C_ik B_jk = (C B^T)_ij
    # and dL/dB_jk = sum_i A_ij C_ik = (A^T C)_jk. With A = [[1, 2]], B = [[3], [4]], C = [[10]]:
    # dL/dA = 10 * [[3, 4]] = [[30, 40]], dL/dB = 10 * [[1], [2]] = [[10], [20]].
    A = ndl.Tensor([[1.0, 2.0]], dtype="float64")
    B = ndl.Tensor([[3.0], [4.0]], dtype="float64")
    (A @ B).backward(ndl.Tensor([[10.0]], dtype="float64", requires_grad=False))
    np.testing.assert_array_equal(A.grad.numpy(), [[30.0, 40.0]])
    np.testing.assert_array_equal(B.grad.numpy(), [[10.0], [20.0]])


def test_summation_keepdims_gradient_by_hand():
    # y = sum_j x_ij kept as shape (2, 1); L = sum_i v_i y_i, so dL/dx_ij = v_i: each row of the
    # adjoint is its own v_i repeated. With v = [[2], [-3]]: [[2, 2, 2], [-3, -3, -3]].
    x = ndl.Tensor(np.arange(6.0).reshape(2, 3), dtype="float64")
    y = ops.summation(x, (1,), keepdims=True)
    np.testing.assert_array_equal(y.numpy(), [[3.0], [12.0]])
    y.backward(ndl.Tensor([[2.0], [-3.0]], dtype="float64", requires_grad=False))
    np.testing.assert_array_equal(x.grad.numpy(), [[2.0, 2.0, 2.0], [-3.0, -3.0, -3.0]])
    assert x.sum(axes=(0,), keepdims=True).shape == (1, 3)


def test_logsumexp_gradient_is_softmax_by_hand():
    # lse(x) = log(e^x1 + e^x2 + e^x3), so d lse / dx_i = e^xi / sum_j e^xj = softmax(x)_i.
    # For x = (0, log 2, log 3) -> e^x = (1, 2, 3), sum 6 -> gradient (1/6, 2/6, 3/6),
    # and lse = log 6.
    x = ndl.Tensor([0.0, np.log(2.0), np.log(3.0)], dtype="float64")
    y = ops.logsumexp(x)
    np.testing.assert_allclose(y.numpy(), np.log(6.0), rtol=1e-15)
    y.backward()
    np.testing.assert_allclose(x.grad.numpy(), [1 / 6, 2 / 6, 3 / 6], rtol=1e-15)


def test_logsumexp_stable_on_huge_inputs():
    x = ndl.Tensor([1000.0, 10000.0, 100.0])
    y = ops.logsumexp(x)
    assert np.isfinite(y.numpy()) and y.numpy() == pytest.approx(10000.0)
    y.backward()
    np.testing.assert_allclose(x.grad.numpy(), [0.0, 1.0, 0.0])


def test_logsumexp_with_neg_inf_entries_and_all_neg_inf_slice():
    inf = np.inf
    data = np.array([[-inf, 0.0, np.log(3.0)], [-inf, -inf, -inf]])
    x = ndl.Tensor(data, dtype="float64")
    y = ops.logsumexp(x, axes=(1,))
    # row 0: log(0 + 1 + 3) = log 4; row 1: log(0) = -inf, never nan
    np.testing.assert_allclose(y.numpy()[0], np.log(4.0))
    assert y.numpy()[1] == -inf
    y.backward(ndl.Tensor([1.0, 1.0], dtype="float64", requires_grad=False))
    g = x.grad.numpy()
    assert np.all(np.isfinite(g)), f"gradient has non-finite entries: {g}"
    np.testing.assert_allclose(g[0], [0.0, 0.25, 0.75])
    np.testing.assert_array_equal(g[1], [0.0, 0.0, 0.0])


def test_logsumexp_of_all_neg_inf_emits_no_warning(recwarn):
    ops.logsumexp(ndl.Tensor([[-np.inf, -np.inf]]), axes=(1,))
    assert not [w for w in recwarn if issubclass(w.category, RuntimeWarning)]


def test_logsoftmax_stable_and_all_neg_inf_slice():
    x = ndl.Tensor([[1000.0, 10000.0, 100.0], [-np.inf, -np.inf, -np.inf]])
    y = ops.logsoftmax(x)
    np.testing.assert_allclose(y.numpy()[0], [-9000.0, 0.0, -9900.0])
    assert np.all(y.numpy()[1] == -np.inf)


def test_logsoftmax_and_logsumexp_at_the_top_of_float32():
    # Maxes near float32's largest value: row 0: lse = 3e38 + log(1 + e^-3e38) = 3e38, so logsoftmax = (0, -3e38); row 1:
    # lse = 3e38 + log 2, which rounds to 3e38 in float32, and logsoftmax = (-log 2, -log 2).
    x = ndl.Tensor([[3e38, 0.0], [3e38, 3e38]])
    np.testing.assert_allclose(ops.logsoftmax(x).numpy(), [[0.0, -3e38], [-np.log(2), -np.log(2)]], rtol=1e-6)
    np.testing.assert_array_equal(ops.logsumexp(x, (1,)).numpy(), np.array([3e38, 3e38], np.float32))


def test_second_derivative():
    # f(x) = x^3 -> f'(x) = 3x^2 -> f''(x) = 6x; at x = (1, 2): f' = (3, 12), f'' = (6, 12)
    x = ndl.Tensor([1.0, 2.0], dtype="float64")
    (x**3).sum().backward(create_graph=True)
    first = x.grad
    np.testing.assert_allclose(first.numpy(), [3.0, 12.0])
    assert first.requires_grad, "with create_graph=True the gradient must be differentiable"
    x.grad = None
    first.sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), [6.0, 12.0])


def test_logsoftmax_backward_and_its_gradient_by_hand():
    # y = logsoftmax([0, ln 3]) = ln([1/4, 3/4]), so p = exp(y) = (1/4, 3/4). With g = (1, 0):
    # out = g - p * sum(g) = (1 - 1/4, 0 - 3/4) = (3/4, -3/4). Its gradient for the adjoint w = (1, 0):
    # d/dg = w - sum(w * p) = (1 - 1/4, 0 - 1/4) = (3/4, -1/4); d/dy = -w * p * sum(g) = (-1/4, 0).
    a = ndl.Tensor([0.0, np.log(3.0)], dtype="float64", requires_grad=False)
    y = ops.logsoftmax(a).detach()
    y.requires_grad = True
    g = ndl.Tensor([1.0, 0.0], dtype="float64")
    out = ops.logsoftmax_backward(g, y)
    np.testing.assert_allclose(out.numpy(), [0.75, -0.75], rtol=1e-12)
    out.backward(ndl.Tensor([1.0, 0.0], dtype="float64", requires_grad=False))
    np.testing.assert_allclose(g.grad.numpy(), [0.75, -0.25], rtol=1e-12)
    np.testing.assert_allclose(y.grad.numpy(), [-0.25, 0.0], atol=1e-12)


def test_second_derivative_of_logsoftmax():
    # d/da sum(v * logsoftmax(a)) = v - p * sum(v), p = softmax(a); its derivative contracted with u:
    # d/da_k sum_i u_i (v_i - p_i V) = -V sum_i u_i p_i ([i == k] - p_k) = -V p_k (u_k - u . p), V = sum(v)
    a0, u, v = randn(5), randn(5), randn(5)
    a = ndl.Tensor(a0, dtype="float64")
    (ops.logsoftmax(a) * ndl.Tensor(v, dtype="float64", requires_grad=False)).sum().backward(create_graph=True)
    g = a.grad
    np.testing.assert_allclose(g.numpy(), v - np.exp(a0 - _np_lse(a0, None)) * v.sum(), rtol=1e-12)
    a.grad = None
    (g * ndl.Tensor(u, dtype="float64", requires_grad=False)).sum().backward()
    p = np.exp(a0 - _np_lse(a0, None))
    np.testing.assert_allclose(a.grad.numpy(), -v.sum() * p * (u - u @ p), rtol=1e-10, atol=1e-12)


def test_second_derivative_of_logsumexp():
    # the Hessian of lse is diag(p) - p p^T with p = softmax(x); check H v
    x0 = randn(4)
    v = randn(4)
    x = ndl.Tensor(x0, dtype="float64")
    ops.logsumexp(x).backward(create_graph=True)
    g = x.grad
    x.grad = None
    (g * ndl.Tensor(v, dtype="float64", requires_grad=False)).sum().backward()
    p = np.exp(x0 - _np_lse(x0, None))
    np.testing.assert_allclose(x.grad.numpy(), p * v - p * (p @ v), rtol=1e-10, atol=1e-12)


@pytest.mark.parametrize(
    "fn, shapes",
    [
        (ops.add, [(2, 3), (3, 2)]),
        (ops.multiply, [(2, 3), (1, 3)]),
        (ops.divide, [(3,), (3, 1)]),
        (ops.power, [(2,), (3,)]),
        (ops.logsoftmax_backward, [(2, 3), (3, 2)]),
    ],
)
def test_elementwise_shape_mismatch_is_a_clear_error(fn, shapes):
    a, b = (ndl.Tensor(np.ones(s)) for s in shapes)
    with pytest.raises(ValueError) as err:
        fn(a, b)
    msg = str(err.value)
    assert str(shapes[0]) in msg and str(shapes[1]) in msg, msg
    assert "broadcast" in msg and "gradient" in msg, msg


def test_operator_shape_mismatch_raises_too():
    with pytest.raises(ValueError, match=r"\(2, 3\).*\(3,\)"):
        ndl.Tensor(np.ones((2, 3))) + ndl.Tensor(np.ones(3))


def test_dtype_mismatch_is_a_clear_error():
    with pytest.raises(ValueError, match="float32.*float64"):
        ndl.Tensor([1.0]) * ndl.Tensor([1.0], dtype="float64")
    with pytest.raises(ValueError, match="dtypes float32 and float64"):
        ndl.Tensor(np.ones((2, 2))) @ ndl.Tensor(np.ones((2, 2)), dtype="float64")


def test_matmul_errors_name_the_shapes():
    with pytest.raises(ValueError, match=r"\(2, 3\) and \(2, 3\) are not aligned"):
        ndl.Tensor(np.ones((2, 3))) @ ndl.Tensor(np.ones((2, 3)))
    with pytest.raises(ValueError, match="at least 2 dimensions"):
        ndl.Tensor(np.ones(3)) @ ndl.Tensor(np.ones((3, 1)))


def test_shape_op_errors():
    with pytest.raises(ValueError, match=r"shape \(2, 3\).*into shape \(4, 2\)"):
        ops.reshape(ndl.Tensor(np.ones((2, 3))), (4, 2))
    with pytest.raises(ValueError, match=r"cannot broadcast shape \(2, 3\) to \(3, 3\)"):
        ops.broadcast_to(ndl.Tensor(np.ones((2, 3))), (3, 3))
    with pytest.raises(ValueError, match="axis 2 is out of range"):
        ops.summation(ndl.Tensor(np.ones((2, 3))), (2,))
    with pytest.raises(ValueError, match="swaps two axes"):
        ops.transpose(ndl.Tensor(np.ones((2, 3, 4))), (2, 0, 1))
    with pytest.raises(ValueError, match="at least 2 dimensions"):
        ops.transpose(ndl.Tensor(np.ones(3)))


def test_broadcast_to_is_a_read_only_view_and_handles_any_layout():
    a = randn(3, 2)
    t = ops.transpose(ndl.Tensor(a, dtype="float64"))  # a non-contiguous (2, 3) view
    assert not t.numpy().flags.c_contiguous
    np.testing.assert_array_equal(ops.broadcast_to(t, (4, 2, 3)).numpy(), np.broadcast_to(a.T, (4, 2, 3)))
    for x, shape in [(randn(1, 4), (3, 4)), (randn(3, 1), (2, 3, 5)), (randn(4), (2, 4))]:
        out = ops.broadcast_to(ndl.Tensor(x, dtype="float64"), shape).numpy()
        np.testing.assert_array_equal(out, np.broadcast_to(x, shape))
    view = ops.broadcast_to(ndl.Tensor(np.ones((1, 3))), (4, 3)).numpy()
    assert not view.flags.writeable, "a broadcast result shares memory with its input: it must be read-only"


def test_a_repeated_axis_is_refused_by_name():
    """numpy refuses sum(axis=(0, 0)); needle does too, and says which axes (mutation audit)."""
    x = ndl.Tensor(randn(2, 3))
    with pytest.raises(ValueError, match=r"repeated axis in \(0, 0\)"):
        ops.summation(x, (0, 0))
    with pytest.raises(ValueError, match="repeated axis"):
        ops.summation(x, (1, -1))  # -1 is axis 1 of a 2-d tensor
