"""gradcheck itself: every other gradient test trusts it, so it must fail on a wrong gradient
wherever the error is (any element, any input), catch what a plain sum would hide (a transpose),
and keep its tolerance tight. Each op below is right in its forward and wrong in one place of its
gradient, on purpose."""
import numpy as np
import pytest

import needle as ndl
from needle.autograd import TensorOp
from needle.gradcheck import gradcheck


class _Product(TensorOp):
    """a * b, whose adjoint for b is off by ``slip`` at its last element alone."""

    def __init__(self, slip: float):
        self.slip = slip

    def compute(self, a, b):
        return a * b

    def gradient(self, out_grad, node):
        a, b = node.inputs
        wrong = np.zeros(b.shape)
        wrong.flat[-1] = self.slip
        return out_grad * b, out_grad * a + ndl.Tensor(wrong, dtype=out_grad.dtype, requires_grad=False)


class _TransposedIdentity(TensorOp):
    """a itself, whose adjoint is transposed: with out_grad all ones (a plain sum) it looks right."""

    def compute(self, a):
        return a.copy()

    def gradient(self, out_grad, node):
        return ndl.ops.transpose(out_grad)


class _ScaledDouble(TensorOp):
    """2a, whose adjoint is 2.0002 out_grad: 1e-4 off, relatively, everywhere."""

    def compute(self, a):
        return 2 * a

    def gradient(self, out_grad, node):
        return out_grad * 2.0002


def test_a_right_gradient_passes():
    gradcheck(_Product(0.0), np.random.default_rng(0).standard_normal((3, 4)), np.random.default_rng(1).standard_normal((3, 4)))


def test_one_wrong_element_of_the_last_input_is_found_and_named():
    """Not only the first input, not only the first element, not only when every element is wrong."""
    a, b = np.random.default_rng(0).standard_normal((3, 4)), np.random.default_rng(1).standard_normal((3, 4))
    with pytest.raises(AssertionError, match=r"input 1: .* at index \(2, 3\)"):
        gradcheck(_Product(1e-3), a, b)


def test_a_transposed_adjoint_is_found_though_a_sum_would_hide_it():
    """L = sum(out * C) with a random C: with C = 1 the transposed ones equal the ones."""
    with pytest.raises(AssertionError, match="input 0"):
        gradcheck(_TransposedIdentity(), np.random.default_rng(2).standard_normal((3, 3)))


def test_a_relative_error_of_1e4_is_beyond_the_tolerance():
    with pytest.raises(AssertionError, match="input 0"):
        gradcheck(_ScaledDouble(), np.random.default_rng(3).standard_normal((4,)))


def test_the_hand_derived_value_of_a_constant_exponent():
    """x ** c with c a constant (requires_grad False): d/dx = c x^(c - 1); at x = 2, c = 3 that is
    3 * 2^2 = 12, and the exponent, a constant, gets no gradient."""
    x = ndl.Tensor([2.0], dtype="float64")
    c = ndl.Tensor([3.0], dtype="float64", requires_grad=False)
    ndl.ops.power(x, c).sum().backward()
    assert x.grad.numpy().tolist() == [12.0] and c.grad is None
