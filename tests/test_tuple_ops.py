"""TensorTuple and the ops that make, index and return tuples."""
import numpy as np
import pytest

import needle as ndl
from needle import ops
from needle.gradcheck import gradcheck

rng = np.random.default_rng(1)


def test_make_tuple_and_indexing():
    a, b = ndl.Tensor([1.0, 2.0]), ndl.Tensor([[3.0]])
    t = ops.make_tuple(a, b)
    assert isinstance(t, ndl.TensorTuple) and len(t) == 2
    np.testing.assert_array_equal(t[0].numpy(), [1.0, 2.0])
    np.testing.assert_array_equal(ops.tuple_get_item(t, 1).numpy(), [[3.0]])
    np.testing.assert_array_equal(t[-1].numpy(), [[3.0]])
    assert [x.shape for x in t.tuple()] == [(2,), (1, 1)]
    assert isinstance(t[0].op, ops.TupleGetItem)


def test_tuple_repr_and_detach():
    t = ops.make_tuple(ndl.Tensor([1.0]), ndl.Tensor([2.0]))
    assert repr(t) == "needle.TensorTuple(needle.Tensor([1.]), needle.Tensor([2.]))"
    d = t.detach()
    assert d.op is None and not d.requires_grad and d.cached_data is t.cached_data


def test_tuple_index_errors():
    t = ops.make_tuple(ndl.Tensor([1.0]))
    with pytest.raises(IndexError, match="out of range for a tuple of 1"):
        t[1]
    with pytest.raises(TypeError, match="takes a TensorTuple"):
        ops.tuple_get_item(ndl.Tensor([1.0]), 0)
    with pytest.raises(TypeError, match="make_tuple takes Tensors"):
        ops.make_tuple(ndl.Tensor([1.0]), 2.0)


def test_fused_add_scalars_forward():
    a = ndl.Tensor([1.0, 2.0])
    t = ops.fused_add_scalars(a, 10.0, -1.0)
    assert isinstance(t.op, ops.FusedAddScalars)
    np.testing.assert_array_equal(t[0].numpy(), [11.0, 12.0])
    np.testing.assert_array_equal(t[1].numpy(), [0.0, 1.0])


def test_fused_add_scalars_gradient_by_hand():
    # (y0, y1) = (a + c0, a + c1); L = sum(y0 * y1) = sum((a + c0)(a + c1))
    # dL/da = (a + c1) + (a + c0) = 2a + c0 + c1; at a = (1, 2), c0 = 1, c1 = 2: (5, 7)
    a = ndl.Tensor([1.0, 2.0], dtype="float64")
    t = ops.fused_add_scalars(a, 1.0, 2.0)
    (t[0] * t[1]).sum().backward()
    np.testing.assert_array_equal(a.grad.numpy(), [5.0, 7.0])


def test_gradient_through_one_slot_only_by_hand():
    # L = sum(3 * y1) with y1 = a + c1: dL/da = 3, and slot 0 contributes 0
    a = ndl.Tensor([1.0, 2.0], dtype="float64")
    t = ops.fused_add_scalars(a, 1.0, 2.0)
    (t[1] * 3).sum().backward()
    np.testing.assert_array_equal(a.grad.numpy(), [3.0, 3.0])


def test_tuple_get_item_gradient_places_out_grad_in_its_slot():
    a, b = ndl.Tensor([1.0, 2.0]), ndl.Tensor([3.0])
    t = ops.make_tuple(a, b)
    node = t[0]
    g = ndl.Tensor([5.0, 6.0], requires_grad=False)
    adj = node.op.gradient(g, node)
    assert isinstance(adj, ndl.TensorTuple) and len(adj) == 2
    np.testing.assert_array_equal(adj[0].numpy(), [5.0, 6.0])
    np.testing.assert_array_equal(adj[1].numpy(), [0.0])


def test_same_slot_used_twice_accumulates():
    # L = sum(t[0] * t[0]) = sum(a^2): dL/da = 2a; b gets a zero gradient
    a, b = ndl.Tensor([1.0, -2.0]), ndl.Tensor([3.0])
    t = ops.make_tuple(a, b)
    (t[0] * t[0]).sum().backward()
    np.testing.assert_array_equal(a.grad.numpy(), [2.0, -4.0])
    np.testing.assert_array_equal(b.grad.numpy(), [0.0])


def test_negative_index_gradient_lands_in_the_slot_it_reads_by_hand():
    """t[-1] is t[1] of a pair, backward included: its adjoint goes to the last input."""
    # L = sum(w * t[-1]) + sum(t[-2]) = sum(w * b) + sum(a): dL/db = w = (2, -3), dL/da = 1
    a, b = ndl.Tensor([1.0, 2.0], dtype="float64"), ndl.Tensor([4.0, 5.0], dtype="float64")
    t = ops.make_tuple(a, b)
    w = ndl.Tensor([2.0, -3.0], dtype="float64", requires_grad=False)
    ((t[-1] * w).sum() + t[-2].sum()).backward()
    np.testing.assert_array_equal(b.grad.numpy(), [2.0, -3.0])
    np.testing.assert_array_equal(a.grad.numpy(), [1.0, 1.0])


def test_negative_index_gradcheck():
    """Negative indices into a tuple op's outputs gradcheck like positive ones."""
    def f(a):
        t = ops.fused_add_scalars(a, 0.5, -3.0)
        return t[-1] * t[-2]

    gradcheck(f, rng.standard_normal((3, 2)))


def test_fused_add_scalars_gradcheck():
    gradcheck(lambda a: ops.fused_add_scalars(a, 0.5, -3.0), rng.standard_normal((3, 2)))


def test_make_tuple_gradcheck():
    gradcheck(lambda a, b: ops.make_tuple(a * b, ops.exp(a)), rng.standard_normal(4), rng.standard_normal(4))


def test_indexing_gradcheck():
    def f(a, b):
        t = ops.fused_add_scalars(a @ b, 1.0, -1.0)
        return t[0] * t[1] + t[1]

    gradcheck(f, rng.standard_normal((2, 3)), rng.standard_normal((3, 2)))


def test_tuple_op_returning_one_adjoint_per_output_is_a_clear_error():
    """The notebook's classic mistake: one adjoint per *output* slot instead of per input.
    Students read this message."""

    class FusedAddScalars(ops.FusedAddScalars):
        def gradient(self, out_grad, node):
            return out_grad[0], out_grad[1]

    a = ndl.Tensor([1.0, 2.0])
    t = FusedAddScalars(1.0, 2.0)(a)
    with pytest.raises(ValueError) as err:
        (t[0] + t[1]).sum().backward()
    assert str(err.value) == (
        "FusedAddScalars.gradient returned 2 adjoints for an op with 1 input: return one adjoint per input"
    )
