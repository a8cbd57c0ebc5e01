"""Tensor-scalar arithmetic: a Python number or a numpy scalar never changes a tensor's dtype
(on every numpy the project allows), and anything that is not a scalar is a clear error."""
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import needle as ndl
from needle import ops

FLOAT_DTYPES = ["float16", "float32", "float64"]
INT_DTYPES = ["int8", "int32", "int64", "uint8"]

# Every way a scalar can reach needle: Python numbers, numpy scalars of every width, 0-d arrays.
SCALAR_TYPES = [float, int, np.float16, np.float32, np.float64, np.int8, np.int32, np.int64, np.uint8, np.array]

# (name, needle expression of (tensor, scalar), numpy restatement with the scalar in the
# tensor's dtype). Reflected forms go through the same ops.
FORMS = [
    ("t + c", lambda t, c: t + c, lambda a, c: a + c),
    ("c + t", lambda t, c: c + t, lambda a, c: c + a),
    ("t - c", lambda t, c: t - c, lambda a, c: a - c),
    ("c - t", lambda t, c: c - t, lambda a, c: c + -a),
    ("t * c", lambda t, c: t * c, lambda a, c: a * c),
    ("c * t", lambda t, c: c * t, lambda a, c: c * a),
    ("t / c", lambda t, c: t / c, lambda a, c: a / c),
    ("c / t", lambda t, c: c / t, lambda a, c: c * a ** a.dtype.type(-1)),
    ("t ** c", lambda t, c: t**c, lambda a, c: a**c),
    ("add_scalar", ops.add_scalar, lambda a, c: a + c),
    ("mul_scalar", ops.mul_scalar, lambda a, c: a * c),
    ("divide_scalar", ops.divide_scalar, lambda a, c: a / c),
    ("power_scalar", ops.power_scalar, lambda a, c: a**c),
]


@settings(max_examples=300, deadline=None)
@given(
    st.sampled_from(FORMS),
    st.sampled_from(FLOAT_DTYPES),
    st.sampled_from(SCALAR_TYPES),
    st.floats(0.25, 4.0, width=16),
    st.lists(st.floats(0.5, 2.0, width=16), min_size=1, max_size=4),
)
def test_scalars_of_any_type_keep_a_float_tensors_dtype(form, dtype, scalar_type, value, data):
    """Values kept positive and small: every form is finite, every scalar type can hold it."""
    name, expr, restated = form
    integer = scalar_type in (int, np.int8, np.int32, np.int64, np.uint8)
    scalar = scalar_type(max(1, round(value)) if integer else value)
    x = ndl.Tensor(data, dtype=dtype)
    out = expr(x, scalar)
    assert out.dtype == np.dtype(dtype), f"{name} with a {type(scalar).__name__} turned {dtype} into {out.dtype}"
    a = x.numpy()
    # the scalar rounded to the tensor's dtype: what NumPy 2 does with a Python number
    np.testing.assert_array_equal(out.numpy(), restated(a, a.dtype.type(np.asarray(scalar).item())))
    out.backward(ndl.Tensor(np.ones(out.shape), dtype=dtype, requires_grad=False))
    assert x.grad.dtype == np.dtype(dtype), f"the gradient of {name} is {x.grad.dtype}, not {dtype}"


def test_the_issues_example_stays_float32():
    # NumPy 2 (NEP 50) promotes float32 * np.float64 to float64; the next op with a float32
    # tensor then raised "dtypes float64 and float32 differ".
    x = ndl.Tensor([1.0, 2.0])
    for scalar in (np.float64(0.5), np.sqrt(2.0), np.int64(2)):
        y = x * scalar
        assert y.dtype == np.float32, f"x * {type(scalar).__name__} is {y.dtype}"
        np.testing.assert_allclose((y + x).numpy(), np.array([1.0, 2.0]) * (float(scalar) + 1), rtol=1e-6)


def test_python_scalar_too_large_for_float32_overflows_in_float32():
    # NumPy 1.x would promote float32 * 1e300 to float64 by value; needle rounds the scalar to
    # float32 (inf), as NumPy 2 does with a Python float (which warns about the cast).
    with np.errstate(over="ignore"):
        y = ndl.Tensor([1.0, -1.0]) * 1e300
    assert y.dtype == np.float32
    np.testing.assert_array_equal(y.numpy(), [np.inf, -np.inf])


@pytest.mark.parametrize("dtype", INT_DTYPES)
def test_integer_scalars_keep_an_integer_tensors_dtype(dtype):
    x = ndl.Tensor([1, 2, 3], dtype=dtype, requires_grad=False)
    for scalar in (2, np.int64(2), np.uint8(2), np.array(2)):
        for name, y, want in [("+", x + scalar, [3, 4, 5]), ("*", x * scalar, [2, 4, 6]), ("**", x**scalar, [1, 4, 9])]:
            assert y.dtype == np.dtype(dtype), f"{dtype} tensor {name} {type(scalar).__name__} gave {y.dtype}"
            np.testing.assert_array_equal(y.numpy(), want)
    if np.dtype(dtype).kind == "i":  # t - c is t + (-c): -c does not fit an unsigned dtype
        for name, y, want in [("t - c", x - np.int8(1), [0, 1, 2]), ("c - t", 5 - x, [4, 3, 2])]:
            assert y.dtype == np.dtype(dtype), f"{name} on {dtype} gave {y.dtype}"
            np.testing.assert_array_equal(y.numpy(), want)


@pytest.mark.parametrize(
    "expr, op_name",
    [
        (lambda x: x * 0.5, "mul_scalar"),
        (lambda x: x + np.float32(1.0), "add_scalar"),
        (lambda x: ops.add_scalar(x, 2**40), "add_scalar"),  # does not fit int32
        (lambda x: x / 2, "divide_scalar"),                   # true division makes fractions
        (lambda x: x ** -1, "power_scalar"),                  # so do negative powers
        (lambda x: x**0.5, "power_scalar"),
        (lambda x: ops.fused_add_scalars(x, 1, 0.5), "fused_add_scalars"),
    ],
)
def test_integer_tensor_with_a_dtype_changing_scalar_is_a_clear_error(expr, op_name):
    """No silent promotion (needle's rule, where PyTorch would promote to float): the error
    names the op and the tensor's dtype and says what to do."""
    x = ndl.Tensor([1, 2], dtype="int32", requires_grad=False)
    with pytest.raises(ValueError, match=rf"^{op_name}: .*int32.*convert the tensor"):
        expr(x)


def test_bool_tensor_with_a_scalar_is_a_clear_error():
    with pytest.raises(ValueError, match=r"mul_scalar: .*dtype bool"):
        ndl.Tensor([True, False], dtype="bool", requires_grad=False) * 2


NOT_SCALARS = [
    (np.array([2.0]), "ndarray of shape (1,)"),
    ([2.0], "list"),
    ("2", "str"),
    (True, "bool"),
    (np.bool_(True), "bool"),
    (None, "NoneType"),
    (2 + 1j, "complex"),
    (ndl.Tensor([2.0]), "Tensor of shape (1,)"),
]


@pytest.mark.parametrize("fn, name", [
    (ops.add_scalar, "add_scalar"),
    (ops.mul_scalar, "mul_scalar"),
    (ops.divide_scalar, "divide_scalar"),
    (ops.power_scalar, "power_scalar"),
    (lambda x, c: ops.fused_add_scalars(x, 1.0, c), "fused_add_scalars"),
])
@pytest.mark.parametrize("bad, described", NOT_SCALARS, ids=[d for _, d in NOT_SCALARS])
def test_scalar_ops_reject_non_scalars_naming_the_op(fn, name, bad, described):
    """Before, divide_scalar(x, np.array([2.0])) ran forward (as float64) and failed later in
    DivScalar.gradient with a TypeError."""
    x = ndl.Tensor([1.0, 2.0])
    with pytest.raises(ValueError) as err:
        fn(x, bad)
    assert str(err.value) == f"{name}: expected a Python or numpy scalar (int or float), got {described}" + (
        " (wrap arrays in needle.Tensor, use the tensor-tensor op)" if "shape" in described else ""
    )
    assert isinstance(err.value, TypeError), "an unsupported operand is also a TypeError, as Python reports it"


def test_a_zero_dim_array_is_a_scalar():
    y = ops.mul_scalar(ndl.Tensor([1.0, 2.0]), np.array(3.0))
    assert y.dtype == np.float32 and y.op.scalar == 3.0 and type(y.op.scalar) is float
    np.testing.assert_array_equal(y.numpy(), [3.0, 6.0])
