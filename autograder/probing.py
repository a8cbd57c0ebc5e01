"""What probe modules use: probes run inside the sandbox, call the student's code on inputs
and return plain data (``plaindata``) for the trusted side to judge. They never hold an
expected answer."""
from __future__ import annotations

import hashlib
from typing import Callable

import numpy as np

import needle as ndl
from coursekit.ladder import Rung, evaluate, plain

# Called with (name, value) for every student definition a probe takes: the sandbox uses it
# to notice a task answered with needle's own class (an alias or a subclass).
watchers: list = []

# needle's slots and the allocator, taken when the zygote imports this module, before any student
# cell runs: what a cell replaces later (a constructor, a property, builtins.object) is not used
SLOTS = tuple(ndl.autograd.Value.__dict__[name] for name in ("op", "inputs", "cached_data", "requires_grad", "grad"))
# each slot's setter, bound once (the probes fill 200,000 nodes for 01's deep chain): op, inputs,
# cached_data, requires_grad, grad
SLOT_SETTERS = tuple(slot.__set__ for slot in SLOTS)
allocate = object.__new__


def fill_node(value, op, inputs: tuple, cached_data, requires_grad: bool):
    """Give ``value`` (a needle Value from ``allocate``) its op, inputs, data and requires_grad, and
    no grad, through needle's slots: a graph node made without needle's constructors, which a cell
    may have hooked (to log the order in which nodes are made, a topological one)."""
    set_op, set_inputs, set_data, set_requires, set_grad = SLOT_SETTERS
    set_op(value, op)
    set_inputs(value, inputs)
    set_data(value, cached_data)
    set_requires(value, requires_grad)
    set_grad(value, None)
    return value


class Missing(LookupError):
    """A name the probe needs is not defined in the student's notebook."""

    def __init__(self, name: str):
        super().__init__(name)
        self.name = name


def probe(*needs: str) -> Callable:
    """Mark a probe and declare the student-defined names it calls (for error messages)."""

    def mark(fn: Callable) -> Callable:
        fn.needs = tuple(needs)
        return fn

    return mark


def need(ns: dict, name: str):
    """The student's definition of ``name``, or Missing."""
    try:
        value = ns[name]
    except KeyError:
        raise Missing(name) from None
    for watch in watchers:
        watch(name, value)
    return value


def as_number(v) -> float:
    """A returned one-element number, array or Tensor as a float (for the trusted side to
    judge); nan for anything else."""
    try:
        if isinstance(v, ndl.Tensor):
            v = v.numpy()
        a = np.asarray(v, dtype=np.float64)
        return float(a.reshape(-1)[0]) if a.size == 1 else float("nan")
    except Exception:
        return float("nan")


def values_digest(values) -> str | None:
    """A digest of numeric values (as float64, with their shape), None for None. Where a test
    compares two calls of the student's code, a probe keeps the first one's values only as this
    (a later call could copy the values from the probe's frame), and the trusted side computes it
    from the later one."""
    if values is None:
        return None
    a = np.ascontiguousarray(values, dtype=np.float64)
    return hashlib.sha256(repr(a.shape).encode() + a.tobytes()).hexdigest()


@probe()
def run_rung(ns: dict, rung: dict, names: list):
    """A data rung of a task's ladder (``coursekit.ladder.Rung``) on the student's definitions:
    what its call gave, as plain data. Every probes module serves it (the worker adds it)."""
    student = {name: need(ns, name) for name in names}
    return plain(evaluate(Rung(**rung), student))
