"""A task's ladder: its contract checked one behaviour at a time, from the smallest input up.

Each task is declared once, in its hidden suite (``autograder.specification.Task``). The rungs
whose inputs are public are written out with the release (``tasks.json`` beside the notebooks)
and run here, in the notebook, by the task's visible test cell::

    # Task 1.1 - visible tests
    check("1.1")

The first rung that fails gives the one message, the same words the grader's report gives for
that rung: the rung's input, what the contract says the call gives, what your code gave, and a
cause only where the rung tells causes apart::

    Task 1.1, rung 3 (a node used twice): on `x = ndl.Tensor([1.0]); t = x + x`,
    `count_graph_nodes(t)` should be 2; your code gave 3.

A rung is plain data (``Rung``): code that builds the input (``given``), the call whose value is
judged (``call``), the value the contract gives (``expect``, derived by hand), a tolerance. The
grader runs the same rung inside its sandbox and judges the value on its own side; here both
happen in your kernel.
"""
from __future__ import annotations

import json
import math
import sys
from dataclasses import asdict, dataclass, field
from pathlib import Path

import numpy as np

MANIFEST = "tasks.json"  # beside the released notebooks: the tasks' public facts and visible rungs
SHOWN_ELEMENTS = 12  # an array longer than this is shown by its shape and first elements
# Type names repeated back in a message; any other type reads as "an object".
TYPE_NAMES = frozenset({"int", "float", "bool", "NoneType", "str", "list", "tuple", "dict", "Tensor", "TensorTuple",
                        "Parameter", "ndarray", "function", "generator", "set"})


@dataclass(frozen=True)
class Rung:
    """One behaviour of a task's contract, on one concrete input.

    ``given``: Python run first, with ``ndl`` (needle), ``np`` and the task's names defined
    (the student's functions); ``call``: the expression whose value is judged; ``expect``: its
    value by the contract (bool, int, None, a float or a nested list of floats); ``returns``: the
    type the contract names for it ("Tensor", "ndarray", "float", "int", "list"), "" for any
    that holds those numbers; ``cause``: added to the message, only when every way of failing
    this rung (having passed the ones before) has that cause. A visible rung is worth no points:
    the hidden rungs after it check the same behaviours, for points, on inputs the student has
    not seen; a hidden data rung (``visible=False``) has points."""
    name: str
    given: str
    call: str
    expect: object
    returns: str = ""
    rtol: float = 1e-5
    atol: float = 1e-6
    cause: str = ""
    points: float = 0  # a visible rung earns none: its input and answer are public (a lookup table passes it)
    visible: bool = True
    dtype: str | list = ""  # the dtype the contract names for the value (for a list: one per item), "" for any

    def public(self) -> dict:
        return {k: v for k, v in asdict(self).items() if k != "visible"}


KINDS = frozenset({"bool", "NoneType", "int", "numpy int", "float", "numpy float", "Tensor", "Parameter", "ndarray",
                   "list", "tuple", "object"} | TYPE_NAMES)
MAX_ELEMENTS = 1_000_000  # of a value sent back by the sandbox: more is not judged, and reads as "an object"


def plain_or_none(got, depth: int = 0) -> dict:
    """A value that came back from the sandbox (the student's process, which may send anything)
    as ``plain`` would have made it, or an "object" of no type when it is not of that form: the
    trusted side judges and shows it without trusting its structure."""
    unknown = {"kind": "object"}
    if not isinstance(got, dict) or got.get("kind") not in KINDS:
        return unknown
    kind, value = got["kind"], got.get("value")
    if kind == "NoneType":
        return {"kind": kind, "value": None}
    if kind == "bool":
        return {"kind": kind, "value": value} if type(value) is bool else unknown
    if kind in ("int", "numpy int"):
        return {"kind": kind, "value": value} if type(value) is int and abs(value) < 2 ** 63 else unknown
    if kind == "float":
        return {"kind": kind, "value": value} if type(value) is float else unknown
    if kind == "numpy float":
        return {"kind": kind, "dtype": _dtype_name(got.get("dtype")), "value": value} if type(value) is float else unknown
    if kind in ("Tensor", "Parameter", "ndarray"):
        shape = got.get("shape")
        if not (isinstance(shape, list) and len(shape) <= 8 and all(type(n) is int and 0 <= n <= MAX_ELEMENTS for n in shape)
                and isinstance(value, list) and len(value) <= MAX_ELEMENTS and len(value) == math.prod(shape)
                and all(type(v) is float for v in value)):
            return unknown
        return {"kind": kind, "dtype": _dtype_name(got.get("dtype")), "shape": shape, "value": value}
    if kind in ("list", "tuple"):
        items = got.get("items")
        if depth >= 2 or not isinstance(items, list) or len(items) > SHOWN_ELEMENTS:
            return unknown
        return {"kind": kind, "items": [plain_or_none(item, depth + 1) for item in items]}
    return {"kind": kind if kind in TYPE_NAMES else "object"}


# --- a value as plain data: what the sandbox sends back, and what a message shows --------------------
def plain(value, depth: int = 0) -> dict:
    """``value`` as plain data with its kind: the same on both sides, so that a message built from
    it reads the same in the notebook and in the grader's report."""
    kind = type(value).__name__
    if value is None or isinstance(value, (bool, np.bool_)):
        return {"kind": "bool" if value is not None else "NoneType", "value": None if value is None else bool(value)}
    if isinstance(value, (int, np.integer)):
        return {"kind": "int" if isinstance(value, int) else "numpy int", "value": int(value)}
    if isinstance(value, np.floating):
        return {"kind": "numpy float", "dtype": str(value.dtype), "value": float(value)}
    if isinstance(value, float):
        return {"kind": "float", "value": float(value)}
    array = _array_of(value)
    if array is not None:
        return {"kind": kind if kind in ("Tensor", "Parameter") else "ndarray", "dtype": str(array.dtype),
                "shape": list(array.shape), "value": array.astype(np.float64).ravel().tolist()}
    if isinstance(value, (list, tuple)) and depth < 2 and len(value) <= SHOWN_ELEMENTS:
        return {"kind": "list" if isinstance(value, list) else "tuple", "items": [plain(v, depth + 1) for v in value]}
    return {"kind": kind if kind in TYPE_NAMES else "object"}


def _array_of(value) -> np.ndarray | None:
    if isinstance(value, np.ndarray) and value.dtype.kind in "biuf":
        return value
    if type(value).__name__ in ("Tensor", "Parameter") and hasattr(value, "numpy"):
        try:
            array = np.asarray(value.numpy())
        except Exception:
            return None
        return array if array.dtype.kind in "biuf" else None
    return None


def shown(got: dict) -> str:
    """A value from ``plain``, as a message shows it."""
    kind = got.get("kind")
    if kind in ("bool", "NoneType", "int"):
        return repr(got["value"])
    if kind == "float":
        return _number(got["value"])
    if kind == "numpy int":
        return f"{got['value']!r} (a numpy int)"
    if kind == "numpy float":
        return f"{_number(got['value'])} (a numpy float)"
    if "shape" in got:
        values = np.asarray(got["value"], dtype=np.float64).reshape(got["shape"])
        text = _numbers(values)
        return f"a Tensor {text}" if kind in ("Tensor", "Parameter") else f"an array {text}"
    if "items" in got:
        inner = ", ".join(shown(item) for item in got["items"])
        return f"[{inner}]" if kind == "list" else f"({inner}{',' if len(got['items']) == 1 else ''})"
    return f"an object of type {kind}" if kind != "object" else "an object of another type"


def _number(x: float) -> str:
    return repr(int(x)) + ".0" if float(x).is_integer() and abs(x) < 1e15 else f"{x:.6g}"


def _numbers(values: np.ndarray) -> str:
    if values.size > SHOWN_ELEMENTS:
        head = ", ".join(_number(v) for v in values.ravel()[:4])
        return f"of shape {tuple(values.shape)} starting {head}, ..."
    return np.array2string(values, precision=6, separator=", ", floatmode="maxprec",
                           formatter={"float_kind": _number}).replace("\n", "")


def expected(rung: Rung) -> str:
    expect = rung.expect
    if isinstance(expect, (bool, int)) or expect is None:
        return repr(expect)
    if isinstance(expect, float):
        text = _number(expect)
    else:
        text = _numbers(np.asarray(expect, dtype=np.float64))
    return {"Tensor": f"a Tensor {text}", "ndarray": f"an array {text}"}.get(rung.returns, text)


# --- the judgement --------------------------------------------------------------------------------
def problem(rung: Rung, got: dict) -> str:
    """"" when ``got`` (from ``plain``) is what the rung expects; else what differs, in words."""
    expect = rung.expect
    if isinstance(expect, bool) or expect is None:
        return "" if got.get("kind") in ("bool", "NoneType") and got.get("value") == expect else "value"
    if isinstance(expect, int):
        if got.get("kind") == "int" and got["value"] == expect:
            return ""
        return "value" if got.get("kind") in ("int", "numpy int") and got["value"] != expect else "type"
    python_float = got.get("kind") == "numpy float" and got.get("dtype") == "float64"  # numpy.float64 is a float
    if rung.returns and got.get("kind") != rung.returns and not (rung.returns == "float" and python_float):
        return "type"
    values = numbers_of(got)
    if values is None:
        return "type"
    want = np.asarray(expect, dtype=np.float64)
    if values.shape != want.shape:
        return "shape"
    same_special = (np.isnan(values) == np.isnan(want)) & (np.isinf(values) == np.isinf(want))
    finite = np.isfinite(want)
    if not same_special.all() or not np.allclose(values[finite], want[finite], rtol=rung.rtol, atol=rung.atol):
        return "value"
    if rung.dtype and dtypes_of(got) != _wanted_dtypes(rung):
        return "dtype"
    return ""


def dtypes_of(got: dict) -> list[str]:
    """The dtype of each value ``got`` holds (one for a number or an array, one per item of a list)."""
    items = got.get("items", [got])
    return [item.get("dtype", "") if item.get("kind") != "float" else "a Python float" for item in items]


def _wanted_dtypes(rung: Rung) -> list[str]:
    return list(rung.dtype) if isinstance(rung.dtype, (list, tuple)) else [rung.dtype]


def _dtype_name(name) -> str:
    return name if name in ("float16", "float32", "float64", "int32", "int64", "bool", "uint8", "int8") else "?"


def numbers_of(got: dict) -> np.ndarray | None:
    """The numbers a value from ``plain`` holds (a number, an array, a Tensor, a list of numbers), or None."""
    kind = got.get("kind")
    if kind in ("int", "numpy int", "float", "numpy float"):
        return np.asarray(got["value"], dtype=np.float64)
    if "shape" in got:
        return np.asarray(got["value"], dtype=np.float64).reshape(got["shape"])
    if "items" in got:
        parts = [numbers_of(item) for item in got["items"]]
        if parts and all(p is not None and p.shape == parts[0].shape for p in parts):
            return np.stack(parts)
    return None


def header(task: str, number: int, rung: Rung) -> str:
    return f"Task {task}, rung {number} ({rung.name})"


def message(task: str, number: int, rung: Rung, got: dict) -> str:
    """The rung's message for a wrong value: its input, the contract's value, the student's."""
    what = problem(rung, got)
    text = f"{header(task, number, rung)}: on `{rung.given}`, `{rung.call}` should be {expected(rung)}; your code gave {shown(got)}"
    if what == "shape":
        text += f" (shape {tuple(got['shape'])}, where the contract gives {tuple(np.shape(rung.expect))})"
    if what == "dtype":
        text += f" (dtype {', '.join(dtypes_of(got))}, where the contract gives {', '.join(_wanted_dtypes(rung))})"
    text += "."
    return f"{text}\n{rung.cause}" if rung.cause else text


def raised(task: str, number: int, rung: Rung, why: str) -> str:
    """The rung's message when the student's code raised: ``why`` says where and what."""
    return f"{header(task, number, rung)}: on `{rung.given}`, `{rung.call}`: {why}"


def evaluate(rung: Rung, names: dict):
    """Run the rung: ``given``, then ``call``, with ``names`` (the student's definitions) in scope.
    Exceptions from the student's code propagate."""
    import needle as ndl

    scope = {"ndl": ndl, "np": np, "math": math, **names}
    exec(compile(rung.given, "<rung input>", "exec"), scope)
    return eval(compile(rung.call, "<rung call>", "eval"), scope)


# --- the visible test cell ------------------------------------------------------------------------
@dataclass
class PublicTask:
    """A task's public facts, as the release's tasks.json holds them."""
    id: str
    names: list[str]
    points: float
    own_work: list[str]
    contract: str
    rungs: list[Rung] = field(default_factory=list)
    hidden: list[str] = field(default_factory=list)  # the names of the rungs only the grader climbs
    notebook: str = ""
    label: str = ""  # what "must be your own ..." names
    uses: list[str] = field(default_factory=list)  # the tasks whose answers this one calls


# The lite site's copy, inside the wheel: a Pyodide kernel reads no file of its drive (each read is
# a request the page's service worker must answer, and one it cannot answer ends the kernel).
PACKAGED = Path(__file__).with_name(MANIFEST)


def manifest_file(folder: Path | None = None) -> Path:
    """Where the tasks' facts are read: ``folder``'s tasks.json, else the notebook's (the kernel's
    working folder), or in a Pyodide kernel the copy the lite site's wheel carries."""
    if folder is None and sys.platform == "emscripten":
        return PACKAGED
    return (folder or Path.cwd()) / MANIFEST


def load(task: str, folder: Path | None = None) -> PublicTask:
    path = manifest_file(folder)
    if not path.is_file():
        raise FileNotFoundError(f"{MANIFEST} is not in {path.parent}: the visible tests read the tasks from it "
                                "(it ships with the notebooks; run the notebook from its own folder)")
    tasks = json.loads(path.read_text(encoding="utf-8"))
    if task not in tasks:
        raise KeyError(f"{path} declares no Task {task} (it has {', '.join(tasks)})")
    entry = dict(tasks[task])
    entry["rungs"] = [Rung(**r) for r in entry.get("rungs", [])]
    return PublicTask(id=task, **entry)


class RungFailed(AssertionError):
    """A task's visible cell found a rung its code fails. In a notebook it shows as its message
    alone (IPython's ``_render_traceback_``): the rung's words, which name the student's own line
    when their code raised, and none of this module's frames."""

    def _render_traceback_(self) -> list[str]:
        return [f"\x1b[0;31m{type(self).__name__}\x1b[0m", *str(self).splitlines()]


def uses_note(task: str, used: str, used_names: list[str], where: str) -> str:
    """What a failing task's message adds when a task whose answers it may call fails too (``where``:
    "rung K (name)"): facts only (whether the student's answer calls it, the grader does not know;
    the task may have a mistake of its own as well)."""
    return (f"\nAlso failing: Task {used}, {where}; if Task {task} uses your {', '.join(used_names)}, "
            f"fix Task {used} first.")


def first_failure(task: str, namespace: dict, folder: Path | None = None) -> str:
    """``"rung K (name)"`` of the first visible rung of ``task`` that fails, "" when all pass."""
    import contextlib
    import io

    try:
        with contextlib.redirect_stdout(io.StringIO()):
            check(task, namespace, folder, _alone=True)
    except AssertionError as exc:
        head = str(exc).partition(": ")[0]  # "Task 9.1, rung 2 (a chain)"
        return head.partition(", ")[2] or "its first rung"
    return ""


def check(task: str, namespace: dict | None = None, folder: Path | None = None, _alone: bool = False) -> None:
    """Climb the visible rungs of ``task`` with the definitions in ``namespace`` (the notebook's,
    by default); raise RungFailed (an AssertionError) with the first failing rung's message."""
    ns = namespace if namespace is not None else sys._getframe(1).f_globals
    spec = load(task, folder)
    try:
        _climb(spec, ns)
    except AssertionError as exc:
        notes = "" if _alone else "".join(
            uses_note(task, used, load(used, folder).names, where) for used in spec.uses
            if (where := first_failure(used, ns, folder)))
        raise RungFailed(f"{exc}{notes}") from None


def _climb(spec: PublicTask, ns: dict) -> None:
    from .trace import default_recursion_limit, needle_calls

    task = spec.id
    missing = [name for name in spec.names if name not in ns]
    if missing:
        raise AssertionError(f"Task {task}: `{missing[0]}` is not defined: run (or restore) the cell that defines it")
    names = {name: ns[name] for name in spec.names}
    for number, rung in enumerate(spec.rungs, 1):
        result = []
        try:
            with default_recursion_limit():  # the grader's: what sys.setrecursionlimit asked is not used there
                used = needle_calls(lambda: result.append(evaluate(rung, names)), spec.own_work)
        except Exception as exc:  # the hint alone, as the grader says it: no word of the exception's own text
            from .hints import hint_for

            raise AssertionError(raised(task, number, rung, hint_for(exc))) from None
        if used:
            raise AssertionError(f"Task {task} must be your own {spec.label or 'work'}: it uses {used[0]}")  # the grader's words
        got = plain(result[0])
        if problem(rung, got):
            raise AssertionError(message(task, number, rung, got))
    rest = f"; the grader also checks: {'; '.join(spec.hidden)}" if spec.hidden else ""
    print(f"Task {task}: the {len(spec.rungs)} visible rungs pass{rest}.")
