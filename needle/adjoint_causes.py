"""Why the adjoint a backward pass stored in a node's ``.grad`` is wrong: what differs, and a
cause only where it is certain.

``debug_adjoints`` finds the first wrong node in reverse topological order: every node that
uses it holds the right adjoint. What went wrong between those users and the node can be
several things that give the same final ``.grad``: a node visited before one of its users
(a breadth-first walk, a pre-order sort), partial adjoints stored instead of summed, the chain
rule applied twice, a wrong op gradient. ``.grad`` alone cannot always tell them apart, so the
explanation says what it sees (expected and got, the partial adjoints from each use and which
of them add up to what ``.grad`` holds) and names a cause only when the evidence leaves no
other: a node visited before one of its users is an order mistake; ``.grad`` equal to some of
the partials is a missing sum only when every user was visited before the node and passed on
its right adjoint.

The visiting order is seen only when the backward pass runs under ``record_backward``: each
op's ``gradient`` call is then recorded (the node, the adjoint it was given, the partial
adjoints it returned), in the order they happen. A leaf is never "visited" (it has no gradient
to call), so its order is not seen.
"""
from __future__ import annotations

import contextlib
import itertools
from dataclasses import dataclass, field

import numpy as np

from .autograd import Tensor, TensorTuple, Value, find_topo_sort
from .gradcheck import as_float64, op_adjoints

MAX_USES_MATCHED = 8  # subsets of at most 2^8 partial adjoints are tried against .grad


@dataclass(frozen=True)
class GradientCall:
    """One call of an op's gradient during a backward pass: ``node`` was visited at ``step``,
    given ``adjoint``, and returned ``partials`` (one per input; None where it gave none)."""

    node: Value
    step: int
    adjoint: object
    partials: list


@dataclass
class BackwardTrace:
    calls: list = field(default_factory=list)
    stored: dict = field(default_factory=dict)  # id(node) -> gradient calls made when its .grad was last set

    def stored_after(self, node: Value) -> int | None:
        """How many gradient calls had been made when ``node.grad`` was last set (None: never set)."""
        return self.stored.get(id(node))

    def steps(self, node: Value) -> list[int]:
        return [c.step for c in self.calls if c.node is node]

    def calls_of(self, node: Value) -> list[GradientCall]:
        return [c for c in self.calls if c.node is node]


def record_backward(backward, output: Value, out_grad) -> BackwardTrace:
    """Run ``backward(output, out_grad)`` recording every op gradient call of the graph's ops."""
    trace = BackwardTrace()
    classes = {type(v.op) for v in find_topo_sort([output]) if v.op is not None}
    inside = [False]  # a subclass's gradient calling super().gradient is one visit

    def recording(original):
        def gradient(self, out_grad, node):
            if inside[0]:
                return original(self, out_grad, node)
            inside[0] = True
            try:
                result = original(self, out_grad, node)
            finally:
                inside[0] = False
            entries = list(result) if isinstance(result, (tuple, list)) else [result]
            trace.calls.append(GradientCall(node, len(trace.calls), _array(out_grad), [_array(e) for e in entries]))
            return result
        return gradient

    slot = Value.__dict__["grad"]

    def store(node, value):
        trace.stored[id(node)] = len(trace.calls)
        slot.__set__(node, value)

    with contextlib.ExitStack() as restore:
        # every .grad set is recorded: when a leaf (never visited) got its final adjoint
        Value.grad = property(slot.__get__, store)
        restore.callback(setattr, Value, "grad", slot)
        for cls in classes:
            own = cls.__dict__.get("gradient")
            setattr(cls, "gradient", recording(cls.gradient))
            restore.callback(_restore, cls, own)
        backward(output, out_grad)
    return trace


def _restore(cls, own) -> None:
    if own is None:
        delattr(cls, "gradient")
    else:
        setattr(cls, "gradient", own)


def _array(value):
    """A float64 copy of a needle value, an array or a tuple of them; None for anything else."""
    if isinstance(value, Value):
        value = value.realize_cached_data()
    if isinstance(value, tuple):
        return tuple(_array(v) for v in value)
    if isinstance(value, np.ndarray) or np.isscalar(value):
        return np.array(as_float64(np.asarray(value)), dtype=np.float64)
    return None


@dataclass(frozen=True)
class Use:
    """Input ``index`` of the op node ``user``: one use of the node being explained."""

    user: Value
    index: int


def uses_of(v: Value, order: list) -> list[Use]:
    return [Use(u, k) for u in order for k, x in enumerate(u.inputs) if x is v]


def explain(v: Value, got, want, order: list, expected: dict, trace: BackwardTrace | None,
            rtol: float, atol: float, eps: float) -> tuple[str, list[str]]:
    """(the problem: a certain cause, or "wrong values" with what could cause it; the facts, one
    line each) for the node ``v`` whose ``.grad`` holds ``got`` where ``want`` was expected,
    every node that uses it being right. ``expected`` maps id(node) to its expected adjoint."""
    uses = uses_of(v, order)
    name = _name(v)
    facts = [f"{name} is used {_times(len(uses))}: " + ", ".join(_use_text(u, trace) for u in uses)]
    if trace is not None and v.op is not None:
        mine = trace.steps(v)
        facts.append(f"{name} was visited at step {_steps(mine)} of {len(trace.calls)}" if mine else f"{name} was never visited")
    elif trace is not None and trace.stored_after(v) is not None:
        facts.append(f"{name}'s .grad was last set after step {trace.stored_after(v) - 1} of {len(trace.calls)}"
                     if trace.stored_after(v) else f"{name}'s .grad was last set before step 0")
    # what each use should send (central differences, from its user's expected adjoint) and, when
    # the pass was recorded, what it did send
    should = [partial_adjoint(u, expected, eps) for u in uses]
    sent = [_sent(u, trace) for u in uses] if trace is not None else None
    partials = sent if sent is not None else should
    facts.append(("the partial adjoints it was sent: " if sent is not None else "the partial adjoints it should receive: ")
                 + "; ".join(f"use {i + 1}: {_few(p)}" for i, p in enumerate(partials)))
    reached = matching_uses(got, partials, rtol, atol)
    if reached is not None:
        facts.append(_reached_text(reached, len(uses)))

    if trace is not None:
        cause = _certain_cause_recorded(v, got, uses, should, sent, reached, expected, trace, rtol, atol)
    else:
        cause = _certain_cause_static(got, uses, should, reached, expected, rtol, atol)
    if cause:
        return cause, facts
    return _possible_causes(v, uses, reached, trace), facts


# --- causes ------------------------------------------------------------------------------------
ORDER_FIX = "Visit the nodes in reverse topological order (each after all of its users)"
CHAIN_TWICE = ("chain rule applied twice: .grad is the sum of each partial adjoint times its user's adjoint once more. "
               "op.gradient(adjoint, node) already applies the chain rule: hand its result to the input as it is")


def _certain_cause_recorded(v, got, uses, should, sent, reached, expected, trace, rtol, atol) -> str:
    name = _name(v)
    if v.op is not None:
        first = min(trace.steps(v), default=None)
        late = [(u, max(trace.steps(u.user))) for u in uses if trace.steps(u.user)]
        late = [(u, s) for u, s in late if first is not None and s > first]
        if late:
            u, s = late[0]
            return (f"visited before one of its users: {name} at step {first}, its user {_name(u.user)} at step {s}, "
                    f"so {name} passed on its adjoint before that partial adjoint arrived. {ORDER_FIX}")
    for u in uses:
        for call in trace.calls_of(u.user):
            right = expected.get(id(u.user))
            if right is not None and not _close(call.adjoint, right, rtol, atol):
                early = _visited_before_a_user(u.user, trace)
                if early:
                    return (f"its user {_name(u.user)} was visited before its own user {early}, so it passed on an "
                            f"incomplete adjoint (it was given {_few(call.adjoint)}, its adjoint is {_few(right)}). {ORDER_FIX}")
    if _chain_twice(got, uses, sent, trace, rtol, atol) and reached is None:
        return CHAIN_TWICE
    users_right = all(_close(c.adjoint, expected.get(id(u.user)), rtol, atol) for u in uses for c in trace.calls_of(u.user))
    visited_once = all(len(trace.steps(u.user)) == 1 for u in uses)
    last_use = max((s for u in uses for s in trace.steps(u.user)), default=-1)
    # an op node after all of its users: visited after them; a leaf: its .grad last set after them
    in_order = bool(trace.steps(v)) if v.op is not None else (trace.stored_after(v) or 0) > last_use
    if users_right and visited_once and in_order:
        wrong_gradient = [i for i, (s, w) in enumerate(zip(sent, should)) if w is not None and not _close(s, w, rtol, atol)]
        if wrong_gradient:
            u = uses[wrong_gradient[0]]
            return (f"a wrong op gradient: {_name(u.user)} was given its right adjoint, and its gradient returned "
                    f"{_few(sent[wrong_gradient[0]])} for input {u.index} where {_few(should[wrong_gradient[0]])} is right "
                    "(debug_gradients checks each op's gradient)")
        if reached is not None and len(reached) < len(uses):
            arrived = "was" if v.op is not None else "got its .grad"
            return (f"partial adjoints not summed: every user was visited before {name} {arrived} and passed on "
                    f"its right adjoint, but .grad holds the partial adjoints of {_uses_text(reached)} only, of "
                    f"{len(uses)}. A node's adjoint is the sum of the partial adjoints from every use")
        if reached is None:
            return (f"its .grad is not what it was sent: every user was visited before {name} and passed on its right "
                    "adjoint, and the partial adjoints it was sent add up to the right adjoint; .grad holds something "
                    "else (they were changed or lost on the way to .grad)")
    return ""


def _certain_cause_static(got, uses, should, reached, expected, rtol, atol) -> str:
    """Without the order: only the chain rule applied twice leaves values nothing else gives."""
    if reached is None and len(uses) and all(s is not None for s in should):
        twice = [_product(s, expected.get(id(u.user))) for s, u in zip(should, uses)]
        if all(t is not None for t in twice) and _close(got, _sum(twice), rtol, atol):
            return CHAIN_TWICE
    return ""


def _possible_causes(v, uses, reached, trace) -> str:
    name = _name(v)
    if reached is not None and len(reached) < len(uses):
        when = " (debug_adjoints(..., backward=your_backward) records the order and tells which)" if trace is None else ""
        return (f"wrong values: .grad holds the partial adjoints of {_uses_text(reached)} only, of {len(uses)}: either "
                f"they are not all summed, or {name} {'was visited' if v.op is not None else 'got its .grad'} before "
                f"its other users had sent theirs{when}")
    return "wrong values (every node that uses it has the right adjoint; the lines below say what it was sent)"


def _visited_before_a_user(u: Value, trace: BackwardTrace) -> str:
    first = min(trace.steps(u), default=None)
    for call in trace.calls:
        if first is not None and call.step > first and any(x is u for x in call.node.inputs):
            return f"{_name(call.node)} (step {call.step}, after step {first})"
    return ""


def _chain_twice(got, uses, sent, trace, rtol, atol) -> bool:
    twice = []
    for u, p in zip(uses, sent):
        calls = trace.calls_of(u.user)
        if len(calls) != 1:
            return False
        twice.append(_product(p, calls[0].adjoint))
    return bool(twice) and all(t is not None for t in twice) and _close(got, _sum(twice), rtol, atol)


# --- the partial adjoints ------------------------------------------------------------------------
def partial_adjoint(use: Use, expected: dict, eps: float = 1e-6):
    """The partial adjoint ``use.user`` should send its input ``use.index``: its expected adjoint
    through its op's compute, by central differences (no gradient trusted)."""
    adjoint = expected.get(id(use.user))
    if adjoint is None:
        return None
    try:
        values = [as_float64(x.realize_cached_data()) for x in use.user.inputs]
        return op_adjoints(use.user.op, values, adjoint, eps)[use.index]
    except Exception:  # an op whose compute fails on float64: nothing to show
        return None


def _sent(use: Use, trace: BackwardTrace):
    """What the user's gradient calls returned for this input, summed over its calls (None: none)."""
    parts = [c.partials[use.index] for c in trace.calls_of(use.user) if use.index < len(c.partials)]
    parts = [p for p in parts if p is not None]
    return _sum(parts) if parts else None


def matching_uses(got, partials: list, rtol, atol) -> list[int] | None:
    """The smallest set of uses (indices) whose partial adjoints add up to ``got``, None if none does."""
    if got is None or isinstance(got, tuple) or len(partials) > MAX_USES_MATCHED:
        return None
    present = [i for i, p in enumerate(partials) if p is not None and not isinstance(p, tuple)]
    for size in range(1, len(present) + 1):
        for subset in itertools.combinations(present, size):
            if _close(got, _sum([partials[i] for i in subset]), rtol, atol):
                return list(subset)
    return None


def _sum(arrays: list):
    try:
        total = arrays[0]
        for a in arrays[1:]:
            total = tuple(x + y for x, y in zip(total, a)) if isinstance(total, tuple) else total + a
        return total
    except (TypeError, ValueError, IndexError):
        return None


def _product(a, b):
    if a is None or b is None or isinstance(a, tuple) or isinstance(b, tuple):
        return None
    try:
        return a * b
    except ValueError:  # shapes that do not broadcast: not this mistake
        return None


def _close(a, b, rtol, atol) -> bool:
    if a is None or b is None:
        return False
    if isinstance(a, tuple) or isinstance(b, tuple):
        return (isinstance(a, tuple) and isinstance(b, tuple) and len(a) == len(b)
                and all(_close(x, y, rtol, atol) for x, y in zip(a, b)))
    a, b = np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64)
    return a.shape == b.shape and bool(np.all(np.isfinite(a))) and bool(np.allclose(a, b, rtol=rtol, atol=atol))


# --- words -------------------------------------------------------------------------------------
def _name(v: Value) -> str:
    if v.op is None:
        return "this leaf" if v.requires_grad else "this constant"
    op = type(v.op).__name__
    scalar = getattr(v.op, "scalar", None)
    return f"the {op}({scalar:g}) node" if isinstance(scalar, (int, float)) else f"the {op} node"


def _use_text(use: Use, trace: BackwardTrace | None) -> str:
    text = f"input {use.index} of {_name(use.user)}"
    if trace is not None:
        steps = trace.steps(use.user)
        text += f" (visited at step {_steps(steps)})" if steps else " (never visited)"
    return text


def _steps(steps: list[int]) -> str:
    return ", ".join(map(str, steps))


def _times(n: int) -> str:
    return {1: "once", 2: "twice"}.get(n, f"{n} times")


def _uses_text(uses: list[int]) -> str:
    numbers = [str(i + 1) for i in uses]
    return f"use {numbers[0]}" if len(numbers) == 1 else "uses " + ", ".join(numbers[:-1]) + " and " + numbers[-1]


def _reached_text(reached: list[int], n: int) -> str:
    if len(reached) == n:
        return f"its .grad is the sum of the partial adjoints of all {n} uses"
    return f"its .grad equals the partial adjoints of {_uses_text(reached)} only, of {n}"


def _few(value) -> str:
    if value is None:
        return "none"
    if isinstance(value, tuple):
        return "(" + ", ".join(_few(a) for a in value) + ")"
    a = np.asarray(value).reshape(-1)
    return "[" + ", ".join(f"{x:.4g}" for x in a[:4]) + (f", … {a.size} numbers" if a.size > 4 else "") + "]"


def ones_out_grad(output: Value) -> Value:
    """out_grad = ones of the output's shape (and dtype), for a backward run without one."""
    value = output.realize_cached_data()
    if isinstance(value, tuple):
        return TensorTuple.make_const(tuple(np.ones_like(a) for a in value))
    return Tensor.make_const(np.ones_like(value))
