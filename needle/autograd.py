"""The core of needle: values in a computational graph and reverse-mode AD.

A graph node is a ``Value``: the ``op`` that produced it, its ``inputs`` and, once
computed, its ``cached_data`` (a numpy array, or a tuple of arrays for a
``TensorTuple``). A leaf has ``op is None`` and no inputs.

Two modes, as in the lecture:

* eager (the default): every op computes its value immediately, and a result
  that needs no gradient is returned already detached (no ``op``, no ``inputs``),
  so constant computations never build a graph;
* lazy: ops only record the graph, values are computed on demand by
  ``realize_cached_data()``. Switch with ``with needle.lazy_mode(): ...`` or by
  setting ``needle.autograd.LAZY_MODE = True``.

``needle.no_grad()`` turns graph building off entirely (the optimizers' updates
and ``backward()`` itself use it unless ``create_graph=True``).
"""
from __future__ import annotations

import contextlib
import itertools
from typing import Iterable, Iterator

import numpy as np

LAZY_MODE = False
_GRAD_ENABLED = True

# The lecture's live-tensor counter, TENSOR_COUNTER (read as dlsys's hw2 reads it,
# ``needle.autograd.TENSOR_COUNTER``: the values alive now), kept in two halves: _CREATED is +1
# when a Value is created (Value.__new__); the frees are counted by _FREED, whose next() is every Value's __del__.
# A C method as finalizer runs no Python frame: a Python __del__ that decremented one counter was
# 3% of an MLP training step's instructions.
_CREATED = 0
_FREED = itertools.count()
_FREED_PEEKS = 0  # next() calls made only to read _FREED


def live_tensor_count() -> int:
    """Number of graph values currently alive (the lecture's TENSOR_COUNTER: created minus freed)."""
    global _FREED_PEEKS
    freed = next(_FREED) - _FREED_PEEKS  # each earlier read advanced the count once
    _FREED_PEEKS += 1
    return _CREATED - freed


def __getattr__(name: str):
    # TENSOR_COUNTER is computed when read (a module attribute not in the module's dict).
    if name == "TENSOR_COUNTER":
        return live_tensor_count()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


@contextlib.contextmanager
def lazy_mode(enabled: bool = True) -> Iterator[None]:
    """Record the graph without computing; values are computed when realized."""
    global LAZY_MODE
    previous, LAZY_MODE = LAZY_MODE, enabled
    try:
        yield
    finally:
        LAZY_MODE = previous


class no_grad:
    """``with no_grad():`` results computed inside need no gradient and carry no graph (like
    torch.no_grad). A class rather than a generator: every backward() enters one, and this
    costs a fraction of contextlib's machinery."""

    def __enter__(self) -> None:
        global _GRAD_ENABLED
        self.previous, _GRAD_ENABLED = _GRAD_ENABLED, False

    def __exit__(self, *exc_info) -> None:
        global _GRAD_ENABLED
        _GRAD_ENABLED = self.previous


def is_grad_enabled() -> bool:
    return _GRAD_ENABLED


class Op:
    """An operator: ``compute`` on raw arrays, ``gradient`` as graph ops."""

    def __call__(self, *args):
        raise NotImplementedError()

    def compute(self, *args):
        """Forward value from the inputs' numpy arrays."""
        raise NotImplementedError()

    def gradient(self, out_grad, node):
        """Partial adjoints for each input, given the output's adjoint ``out_grad``.

        Returns a Value, or a tuple with one entry per input. An entry may be None
        for an input that does not require a gradient (lets costly ops skip work).
        """
        raise NotImplementedError()

    def gradient_as_tuple(self, out_grad, node) -> tuple:
        """``gradient``'s result as a tuple with exactly one adjoint per input."""
        return self.adjoints_as_tuple(self.gradient(out_grad, node), node)

    def adjoints_as_tuple(self, grads, node) -> tuple:
        """``grads``, what ``gradient`` returned for ``node``, as a tuple of one adjoint per input."""
        if type(grads) is not tuple:
            grads = tuple(grads) if isinstance(grads, (tuple, list)) else (grads,)
        if len(grads) != len(node.inputs):
            # zip() in backward would silently drop extra adjoints or starve an input.
            raise ValueError(
                f"{type(self).__name__}.gradient returned {_count(len(grads), 'adjoint')} for an op "
                f"with {_count(len(node.inputs), 'input')}: return one adjoint per input"
            )
        return grads

    def __repr__(self) -> str:
        fields = ", ".join(f"{k}={v!r}" for k, v in vars(self).items())
        return f"{type(self).__name__}({fields})"


class TensorOp(Op):
    """An op whose output is one Tensor."""

    def __call__(self, *args):
        return Tensor.make_from_op(self, args)


class TensorTupleOp(Op):
    """An op whose output is a TensorTuple (several tensors at once)."""

    def __call__(self, *args):
        return TensorTuple.make_from_op(self, args)


class Value:
    """A node of the computational graph."""

    __slots__ = ("op", "inputs", "cached_data", "requires_grad", "grad", "__weakref__")

    def __new__(cls, *args, **kwargs):
        # counted where every Value is made, however its fields are then set (``Tensor.__new__``
        # and fields by hand, as a detach written in notebook 02 does): each __del__ has its creation
        global _CREATED
        _CREATED += 1
        return object.__new__(cls)

    def _init(self, op, inputs, cached_data, requires_grad):
        self.op = op
        self.inputs = inputs
        self.cached_data = cached_data
        self.requires_grad = requires_grad
        self.grad = None

    __del__ = _FREED.__next__  # counts the frees (see _CREATED)

    def realize_cached_data(self):
        """Compute (once) and return this node's value.

        Iterative, so a lazily built 100,000-op chain realizes without recursion.
        """
        if self.cached_data is not None:
            return self.cached_data
        for node in _topo_order([self], lambda v: v.cached_data is None):
            if node.cached_data is None:
                node.cached_data = node.op.compute(
                    *[x.realize_cached_data() for x in node.inputs]
                )
        return self.cached_data

    def is_leaf(self) -> bool:
        return self.op is None

    @classmethod
    def make_const(cls, data, *, requires_grad: bool = False):
        """A leaf sharing ``data`` (no copy): for constants and detached views."""
        if isinstance(data, Value):
            data = data.realize_cached_data()
        value = cls.__new__(cls)
        value._init(None, (), data, requires_grad)
        return value

    @classmethod
    def make_from_op(cls, op: Op, inputs: tuple):
        # _init written out, and one- and two-input ops (nearly all) taken apart by hand: this
        # runs for every op, and a generic loop or a *args call costs as much as a small op's
        # numpy work.
        value = cls.__new__(cls)
        value.grad = None
        inputs = tuple(inputs)
        try:
            if LAZY_MODE:  # recorded only: the value is computed when it is realized
                for x in inputs:  # checked now: nothing reads them until then
                    if not isinstance(x, Value):
                        raise _not_a_value(op, x)
                value.requires_grad = _GRAD_ENABLED and any(x.requires_grad for x in inputs)
                value.op, value.inputs, value.cached_data = op, inputs, None
                return value
            # an input recorded in lazy mode is computed first
            if len(inputs) == 2:
                a, b = inputs
                needs_grad = _GRAD_ENABLED and (a.requires_grad or b.requires_grad)
                value.cached_data = op.compute(a.realize_cached_data() if a.cached_data is None else a.cached_data,
                                               b.realize_cached_data() if b.cached_data is None else b.cached_data)
            elif len(inputs) == 1:
                a = inputs[0]
                needs_grad = _GRAD_ENABLED and a.requires_grad
                value.cached_data = op.compute(a.realize_cached_data() if a.cached_data is None else a.cached_data)
            else:
                needs_grad = _GRAD_ENABLED and any(x.requires_grad for x in inputs)
                value.cached_data = op.compute(*[x.realize_cached_data() for x in inputs])
        except AttributeError:  # no cost until raised: an input that is not a Value (a numpy array, ...)
            for x in inputs:
                if not isinstance(x, Value):
                    raise _not_a_value(op, x) from None
            raise
        if needs_grad:
            value.requires_grad, value.op, value.inputs = True, op, inputs
        else:  # eager mode: nothing upstream needs a gradient, so keep no graph
            value.requires_grad, value.op, value.inputs = False, None, ()
        return value


def _not_a_value(op: Op, x) -> TypeError:
    got = type(x).__name__ + (f" of shape {x.shape}" if isinstance(x, np.ndarray) else "")
    return TypeError(f"{type(op).__name__}: its inputs must be needle Tensors, got {got} (wrap arrays in "
                     f"needle.Tensor; compute() is what takes numpy arrays)")


def _topo_order(roots: Iterable[Value], follow=None) -> list[Value]:
    """Post-order (inputs before users) of the nodes reachable from ``roots`` through
    inputs for which ``follow(node)`` holds (all when None). Iterative depth-first search,
    so graph depth is not limited by Python's recursion limit."""
    order: list[Value] = []
    visited: set[Value] = set()
    for root in roots:
        if root in visited:
            continue
        visited.add(root)
        stack = [(root, iter(root.inputs))]
        while stack:
            node, children = stack[-1]
            for child in children:
                if child not in visited and (follow is None or follow(child)):
                    visited.add(child)
                    stack.append((child, iter(child.inputs)))
                    break
            else:
                stack.pop()
                order.append(node)
    return order


def find_topo_sort(node_list: Iterable[Value]) -> list[Value]:
    """Every node reachable from ``node_list``, each after all of its inputs."""
    return _topo_order(node_list)


def graph_node_count(value: Value) -> int:
    """Distinct values reachable from ``value`` through ``inputs`` (itself included)."""
    return len(find_topo_sort([value]))


def _as_array(array, dtype) -> np.ndarray:
    if isinstance(array, Value):
        array = array.realize_cached_data()
    try:
        return np.array(array, dtype=dtype)
    except (TypeError, ValueError) as exc:
        raise TypeError(
            f"needle.Tensor expects a number, a (nested) list of numbers, a numpy array "
            f"or a Tensor, got {type(array).__name__}: {exc}"
        ) from None


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


class ScalarError(TypeError, ValueError):
    """Not a scalar where a scalar op needs one. A TypeError, as Python reports an unsupported
    operand, and a ValueError, as the ``*_scalar`` ops promise (like numpy's AxisError, which
    is both a ValueError and an IndexError)."""


def as_scalar(x, op_name: str, expected: str = "a Python or numpy scalar (int or float)"):
    """``x`` as a Python int or float: numpy scalars and 0-d arrays are unwrapped, so that
    every scalar op applies the same dtype rule (see ``needle.ops._checks.scalar_like``)."""
    if type(x) is float or type(x) is int:  # the common case, first
        return x
    if isinstance(x, (np.generic, np.ndarray)) and np.ndim(x) == 0:
        x = x.item()
    if isinstance(x, (int, float)) and not isinstance(x, bool):
        return x
    got = type(x).__name__
    if hasattr(x, "shape"):
        got += f" of shape {tuple(x.shape)} (wrap arrays in needle.Tensor, use the tensor-tensor op)"
    raise ScalarError(f"{op_name}: expected {expected}, got {got}")


def _scalar(x, op_name: str):
    if type(x) is float or type(x) is int:  # as_scalar's common case, without building its message
        return x
    return as_scalar(x, f"Tensor {op_name}", "a Tensor or a Python/numpy scalar")


class Tensor(Value):
    """A multi-dimensional array that records the operations applied to it."""

    __slots__ = ()
    __array_priority__ = 1000  # numpy scalar op Tensor -> our reflected operators

    def __init__(self, array, *, dtype="float32", requires_grad: bool = True):
        self._init(None, (), _as_array(array, dtype), requires_grad)

    # --- data access -----------------------------------------------------------
    def detach(self) -> "Tensor":
        """A new leaf sharing the same ``cached_data``, with no graph and no grad."""
        return Tensor.make_const(self.realize_cached_data())

    @property
    def data(self) -> "Tensor":
        return self.detach()

    @data.setter
    def data(self, value) -> None:
        new = value.realize_cached_data() if isinstance(value, Value) else value
        if not isinstance(new, np.ndarray):
            raise TypeError(
                f"Tensor.data must be set to a Tensor or numpy array, got {type(value).__name__}"
            )
        old = self.realize_cached_data()
        if new.shape != old.shape or new.dtype != old.dtype:
            raise ValueError(
                f"cannot set Tensor.data: new value has shape {new.shape} and dtype {new.dtype}, "
                f"expected shape {old.shape} and dtype {old.dtype} (the tensor's own)"
            )
        # Same Tensor object, new content: every reference to it sees the update.
        self.cached_data = new

    def numpy(self) -> np.ndarray:
        return self.realize_cached_data()

    # shape and dtype read cached_data directly when it is there: ops and layers ask for them often
    @property
    def shape(self) -> tuple:
        data = self.cached_data
        return (self.realize_cached_data() if data is None else data).shape

    @property
    def dtype(self):
        data = self.cached_data
        return (self.realize_cached_data() if data is None else data).dtype

    @property
    def ndim(self) -> int:
        return self.realize_cached_data().ndim

    def __len__(self) -> int:
        return len(self.realize_cached_data())

    def __repr__(self) -> str:
        return f"needle.Tensor({self.realize_cached_data()})"

    def __str__(self) -> str:
        return str(self.realize_cached_data())

    def __bool__(self):
        raise TypeError(
            "the truth value of a needle.Tensor is ambiguous: compare t.numpy() instead"
        )

    # --- autodiff ----------------------------------------------------------------
    def backward(self, out_grad: "Tensor | None" = None, *, create_graph: bool = False) -> None:
        """Accumulate d(self)/d(leaf) into ``leaf.grad`` for every leaf that requires grad.

        ``out_grad`` defaults to ones, allowed only for a one-element tensor (a loss).
        With ``create_graph=True`` the gradients are themselves differentiable.
        """
        if not self.requires_grad:
            raise RuntimeError(
                "backward() called on a tensor that does not require grad: none of its "
                "inputs has requires_grad=True (or it was computed under no_grad / detached)"
            )
        value = self.realize_cached_data()
        if out_grad is None:
            if value.size != 1:
                raise RuntimeError(
                    f"backward() without out_grad needs a one-element tensor (a loss); this one "
                    f"has shape {value.shape}: reduce it (e.g. .sum()) or pass out_grad"
                )
            out_grad = Tensor(np.ones(value.shape, value.dtype), dtype=value.dtype, requires_grad=False)
        else:
            if not isinstance(out_grad, Tensor):
                out_grad = Tensor(out_grad, dtype=value.dtype, requires_grad=False)
            if out_grad.shape != value.shape:
                raise ValueError(
                    f"out_grad has shape {out_grad.shape}, expected the tensor's shape {value.shape}"
                )
        if create_graph:
            compute_gradient_of_variables(self, out_grad)
        else:
            with no_grad():
                compute_gradient_of_variables(self, out_grad)

    # --- operators (see needle.ops) ---------------------------------------------------
    def __add__(self, other):
        if isinstance(other, Tensor):
            return ops.EWiseAdd()(self, other)
        return ops.AddScalar(_scalar(other, "+"))(self)

    __radd__ = __add__

    def __sub__(self, other):
        if isinstance(other, Tensor):
            return ops.EWiseAdd()(self, ops.Negate()(other))
        return ops.AddScalar(-_scalar(other, "-"))(self)

    def __rsub__(self, other):  # other - self
        return ops.AddScalar(_scalar(other, "-"))(ops.Negate()(self))

    def __mul__(self, other):
        if isinstance(other, Tensor):
            return ops.EWiseMul()(self, other)
        return ops.MulScalar(_scalar(other, "*"))(self)

    __rmul__ = __mul__

    def __truediv__(self, other):
        if isinstance(other, Tensor):
            return ops.EWiseDiv()(self, other)
        return ops.DivScalar(_scalar(other, "/"))(self)

    def __rtruediv__(self, other):  # other / self
        return ops.MulScalar(_scalar(other, "/"))(ops.PowerScalar(-1)(self))

    def __pow__(self, other):
        if isinstance(other, Tensor):
            return ops.EWisePow()(self, other)
        return ops.PowerScalar(_scalar(other, "**"))(self)

    def __rpow__(self, other):  # other ** self = exp(self * log(other))
        base = _scalar(other, "**")
        return ops.Exp()(ops.MulScalar(float(np.log(base)))(self))

    def __neg__(self):
        return ops.Negate()(self)

    def __matmul__(self, other):
        if not isinstance(other, Tensor):
            raise TypeError(f"@ needs two Tensors, got {type(other).__name__}")
        return ops.MatMul()(self, other)

    def matmul(self, other):
        return self @ other

    def sum(self, axes=None, keepdims=False):
        return ops.Summation(axes, keepdims)(self)

    def reshape(self, *shape):
        if len(shape) == 1 and isinstance(shape[0], (tuple, list)):
            shape = shape[0]
        return ops.Reshape(shape)(self)

    def transpose(self, axes=None):
        return ops.Transpose(axes)(self)

    @property
    def T(self):
        return self.transpose()

    def broadcast_to(self, shape):
        return ops.BroadcastTo(shape)(self)

    def exp(self):
        return ops.Exp()(self)

    def log(self):
        return ops.Log()(self)

    def relu(self):
        return ops.ReLU()(self)


class TensorTuple(Value):
    """Several tensors produced by one op; index it to get (differentiable) Tensors."""

    __slots__ = ()

    def __len__(self) -> int:
        return len(self.realize_cached_data())

    def __getitem__(self, index: int) -> Tensor:
        n = len(self)
        if not isinstance(index, (int, np.integer)) or not -n <= index < n:
            raise IndexError(f"TensorTuple index {index!r} out of range for a tuple of {n}")
        return ops.TupleGetItem(int(index) % n)(self)

    def __iter__(self):
        return (self[i] for i in range(len(self)))

    def tuple(self) -> tuple:
        return tuple(self)

    def __add__(self, other: "TensorTuple") -> "TensorTuple":
        """Element-wise sum of two tuples (used to accumulate tuple gradients)."""
        if not isinstance(other, TensorTuple) or len(other) != len(self):
            raise ValueError("TensorTuple + needs another TensorTuple of the same length")
        return ops.make_tuple(*[a + b for a, b in zip(self, other)])

    def detach(self) -> "TensorTuple":
        return TensorTuple.make_const(self.realize_cached_data())

    def __repr__(self) -> str:
        items = ", ".join(f"needle.Tensor({a})" for a in self.realize_cached_data())
        return f"needle.TensorTuple({items})"

    __str__ = __repr__


def compute_gradient_of_variables(output: Tensor, out_grad: Tensor) -> None:
    """Reverse-mode AD: visit every node that requires grad from ``output`` down, each once all
    of its users have handed it their partial adjoints (so their sum is complete), apply its op's
    gradient to that sum, and accumulate the leaves' sums into their ``grad``.

    The visiting order is a reverse topological one. It comes from counting each node's users
    first and visiting a node when the last of them is done (Kahn's algorithm, as PyTorch's engine
    schedules backward), not from sorting: fewer steps per node than a depth-first sort."""
    users = {output: 0}  # node -> edges reaching it from the nodes above it that require grad
    stack = [output]
    while stack:
        for inp in stack.pop().inputs:
            if inp.requires_grad:
                if inp in users:
                    users[inp] += 1
                else:
                    users[inp] = 1
                    stack.append(inp)
    adjoints: dict[Value, Value] = {output: out_grad}  # Values hash by identity
    ready = [output]
    while ready:
        node = ready.pop()
        grad = adjoints.pop(node, None)
        if grad is None:  # no path from this node reaches the output's gradient: release its inputs
            partials = (None,) * len(node.inputs)
        elif node.op is None:
            if isinstance(node, Tensor):
                node.grad = grad if node.grad is None else node.grad + grad
            continue
        else:
            partials = node.op.gradient(grad, node)
            if type(partials) is not tuple or len(partials) != len(node.inputs):  # tested here: it runs per node
                # a one-input op's lone adjoint (most ops) wrapped here, without a call
                one = isinstance(partials, Value) and len(node.inputs) == 1
                partials = (partials,) if one else node.op.adjoints_as_tuple(partials, node)
        for inp, partial in zip(node.inputs, partials):
            if not inp.requires_grad:
                continue
            if partial is not None:
                previous = adjoints.get(inp)
                adjoints[inp] = partial if previous is None else previous + partial
            left = users[inp] - 1
            if left:
                users[inp] = left
            else:  # its last user is done: its adjoint is complete
                ready.append(inp)


from . import ops  # noqa: E402  (ops import this module's classes)
