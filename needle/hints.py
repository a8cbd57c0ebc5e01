"""When your code raises: where (your own line) and why (a cause from a small, fixed vocabulary).

In a notebook, ``needle.hints.install()`` (the setup cell of each course notebook calls it) adds
one line under Python's traceback naming the likely cause::

    AttributeError: 'NoneType' object has no attribute 'inputs'
    hint: line 3 of your cell `def count_graph_nodes(t):`: `return t.op.inputs`: an attribute
    of None: `.inputs`'s owner is None here (a function that returned nothing, a leaf's .op, ...)

The course's grader uses the same vocabulary, in two halves so that no string produced by
student code reaches a report: ``classify(exc)`` runs where the exception happened and reduces it
to plain data (a cause, a detail, the innermost frame in a notebook cell); ``message(...)`` builds
the text from the cell's lines as read from the notebook file, showing a detail only when it is
one of a fixed set of names or appears in that very line. The vocabulary is small and bounded
(about four bits a test), so raising chosen exceptions tells a grader's hidden inputs little.
"""
from __future__ import annotations

import re

# cause -> what the student reads (``{detail}`` is filled only with a checked detail)
CAUSES = {
    "none_attribute": "an attribute of None: {detail} is None here (a function that returned nothing, a leaf's .op, or a .grad before backward)",
    "missing_attribute": "an attribute that this object does not have{detail}",
    "name_not_defined": "a name not defined in this notebook{detail} (run the cell that defines it, or check its spelling)",
    "shape_mismatch": "a shape mismatch in {detail}: print the shapes going in (needle never broadcasts implicitly: reshape or broadcast_to first)",
    "dtype_mismatch": "a dtype mismatch in {detail}: needle does not promote dtypes; make both float32",
    "scalar_dtype": "a scalar that would change the tensor's dtype in {detail}",
    "type_mix": "an operation on two types that do not go together{detail}",
    "numpy_scalar": "a numpy scalar where a Python float or int is needed (float(...) converts it)",
    "float_index": "a float where an integer is needed (an index, a size or a count: use // or int(...))",
    "none_used": "None used as a value (a function that forgot its return statement?)",
    "not_callable": "calling something that is not a function{detail}",
    "arguments": "a call with the wrong number or names of arguments",
    "unhashable": "an unhashable object as a dict key or in a set{detail}: key by id(...)",
    "recursion": "Python's recursion limit: walk deep structures with an explicit stack",
    "not_implemented": "NotImplementedError: the stub is not implemented yet",
    "index": "an index out of range",
    "key": "a missing dict key",
    "zero_division": "a division by zero",
    "memory": "running out of memory",
    "refused": "something the grading sandbox does not provide (threads, processes, files outside your folder, the network, changing the recursion limit)",
    "other": "",
}

# Types whose names may be repeated back (any other type is "an object").
KNOWN_TYPES = frozenset({
    "Tensor", "TensorTuple", "Parameter", "Value", "ndarray", "list", "tuple", "dict", "set", "float", "int",
    "bool", "str", "NoneType", "float32", "float64", "int64", "int32", "function", "method", "generator",
    "module", "range", "map", "zip", "builtin_function_or_method",
})
_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]{0,40}\Z")
_CELL = re.compile(r"<cell (\d+)>\Z")


def _where(exc) -> tuple[int, int] | None:
    """(cell index, line) of the innermost frame in one of the notebook's cells."""
    found, tb = None, exc.__traceback__
    while tb is not None:
        match = _CELL.match(tb.tb_frame.f_code.co_filename)
        if match:
            found = (int(match.group(1)), tb.tb_lineno)
        tb = tb.tb_next
    return found


def classify(exc: BaseException) -> dict:
    """Plain data about a raised exception: {"cause", "detail", "where"}."""
    kind, text = type(exc).__name__, str(exc) if exc.args else ""
    cause, detail = "other", ""
    if isinstance(exc, RecursionError):
        cause = "recursion"
    elif isinstance(exc, NotImplementedError):
        cause = "not_implemented"
    elif isinstance(exc, MemoryError):
        cause = "memory"
    elif isinstance(exc, ZeroDivisionError):
        cause = "zero_division"
    elif isinstance(exc, AttributeError):
        m = re.match(r"'(\w+)' object has no attribute '(\w+)'", text)
        if m and m.group(1) == "NoneType":
            cause, detail = "none_attribute", m.group(2)
        elif m:
            cause, detail = "missing_attribute", f"{m.group(1)}.{m.group(2)}"
    elif isinstance(exc, NameError):
        m = re.match(r"(?:name|free variable|cannot access free variable) '(\w+)'", text)
        cause, detail = "name_not_defined", m.group(1) if m else ""
    elif isinstance(exc, TypeError):
        cause, detail = _type_error(text)
    elif isinstance(exc, ValueError):
        m = re.match(r"(\w+): (shapes|dtypes|the scalar) ", text)
        if m:
            cause = {"shapes": "shape_mismatch", "dtypes": "dtype_mismatch", "the scalar": "scalar_dtype"}[m.group(2)]
            detail = m.group(1)
        elif "could not be broadcast" in text or "shapes" in text and "not aligned" in text or "cannot reshape" in text:
            cause, detail = "shape_mismatch", "numpy"
    elif isinstance(exc, IndexError):
        cause = "index"
    elif isinstance(exc, KeyError):
        cause = "key"
    elif kind == "Refused" or isinstance(exc, PermissionError):
        cause = "refused"
    return {"cause": cause, "detail": detail[:80], "where": _where(exc)}


def _type_error(text: str) -> tuple[str, str]:
    if "numpy.float" in text or "numpy.int" in text or "np.float" in text:
        return "numpy_scalar", ""
    if re.search(r"'float' object cannot be interpreted as an integer|indices must be integers|integer argument expected, got float", text):
        return "float_index", ""
    m = re.match(r"unsupported operand type\(s\) for .+: '(\w+)' and '(\w+)'", text)
    if m:
        return ("none_used", "") if "NoneType" in m.groups() else ("type_mix", f"{m.group(1)},{m.group(2)}")
    m = re.match(r"'(\w+)' object is not (callable|subscriptable|iterable)", text)
    if m:
        if m.group(1) == "NoneType":
            return "none_used", ""
        return ("not_callable", m.group(1)) if m.group(2) == "callable" else ("type_mix", m.group(1))
    m = re.match(r"unhashable type: '(\w+)'", text)
    if m:
        return "unhashable", m.group(1)
    if re.search(r"positional argument|keyword argument|takes \d+|missing \d+ required", text):
        return "arguments", ""
    return "other", ""


def _checked_detail(cause: str, detail: str, line: str, op_names: frozenset) -> str:
    """The detail, only if it cannot carry the student's chosen text: a name that appears in
    the line itself, a known type or one of needle's ops; else ""."""
    if not isinstance(detail, str) or not detail:
        return ""
    if cause in ("none_attribute", "name_not_defined"):
        return detail if _IDENTIFIER.match(detail) and re.search(rf"\b{re.escape(detail)}\b", line) else ""
    if cause == "missing_attribute":
        owner, _, attr = detail.partition(".")
        if _IDENTIFIER.match(attr) and re.search(rf"\.{re.escape(attr)}\b", line):
            return f" (`.{attr}` of {'a ' + owner if owner in KNOWN_TYPES else 'an object'})"
        return ""
    if cause in ("shape_mismatch", "dtype_mismatch", "scalar_dtype"):
        return "a numpy operation" if detail == "numpy" else f"needle's `{detail}`" if detail in op_names else "a needle op"
    if cause in ("type_mix", "not_callable", "unhashable"):
        names = detail.split(",")
        if all(n in KNOWN_TYPES for n in names):
            return " (" + " and ".join(f"a {n}" for n in names) + ")"
        return ""
    return ""


def needle_op_names() -> frozenset:
    """Names needle's ops use in their error messages (class names and operator symbols)."""
    import needle.ops as ops

    names = {name for name, value in vars(ops).items() if isinstance(value, type) or callable(value)}
    return frozenset(names | {"numpy"})


def _enclosing_definition(lines: list[str], line_no: int) -> str:
    """The ``def``/``class`` line that holds line ``line_no`` (1-based), or ""."""
    target = lines[line_no - 1]
    indent = len(target) - len(target.lstrip())
    for candidate in reversed(lines[: line_no - 1]):
        stripped = candidate.lstrip()
        depth = len(candidate) - len(stripped)
        if stripped and depth < indent:
            if stripped.startswith(("def ", "class ", "async def ")):
                return stripped
            indent = depth
    return ""


def printable_line(text: str, limit: int = 120) -> str:
    """A source line as shown in a report: stripped, printable ASCII-safe, short."""
    text = "".join(c if c.isprintable() else "?" for c in text.strip())
    return text if len(text) <= limit else text[: limit - 3] + "..."


def message(exc_name: str, info: dict, cell_lines: list[str], line_no: int, op_names: frozenset | None = None) -> str:
    """"your code raised X at line N of your cell `head`: `line`: cause", from trusted pieces:
    the cell's lines (read from the notebook), and a cause and detail checked against them."""
    cause = info.get("cause") if info.get("cause") in CAUSES else "other"
    line = cell_lines[line_no - 1] if 1 <= line_no <= len(cell_lines) else ""
    place = ""
    if line:
        owner = _enclosing_definition(cell_lines, line_no)
        inside = f", in `{printable_line(owner, 60)}`" if owner else ""
        place = f" at line {line_no} of your cell{inside}: `{printable_line(line)}`"
    detail = _checked_detail(cause, info.get("detail", ""), line, op_names if op_names is not None else needle_op_names())
    if cause == "none_attribute":
        detail = f"`.{detail}`'s owner" if detail else "something"
    elif cause == "name_not_defined" and detail:
        detail = f" (`{detail}`)"
    if cause == "not_implemented":
        return "your code raised NotImplementedError: the stub is not implemented yet" + place
    what = CAUSES[cause].format(detail=detail)
    return f"your code raised {exc_name or 'an exception'}{place}" + (f": {what}" if what else "")


def _cell_frame(tb):
    """(file, line) of the innermost frame in a notebook cell: IPython's cell files
    (``/tmp/ipykernel_*/N.py``, ``<ipython-input-*>``) or the grader's ``<cell N>``."""
    where = None
    while tb is not None:
        name = tb.tb_frame.f_code.co_filename
        if "ipykernel_" in name or name.startswith("<ipython-input-") or _CELL.match(name):
            where = (name, tb.tb_lineno)
        tb = tb.tb_next
    return where


def hint_for(exc: BaseException) -> str:
    """The hint for an exception raised in a notebook (its cell lines from linecache)."""
    import linecache

    where = _cell_frame(exc.__traceback__)
    lines = [line.rstrip("\n") for line in linecache.getlines(where[0])] if where else []
    return message(type(exc).__name__, classify(exc), lines, where[1] if where else 0)


def install() -> bool:
    """In IPython/Jupyter: print a hint line under the traceback of every exception of the
    common kinds raised by a cell. Returns False outside IPython."""
    try:
        from IPython import get_ipython
    except ImportError:
        return False
    shell = get_ipython()
    if shell is None:
        return False

    def show(self, etype, value, tb, tb_offset=None):
        self.showtraceback((etype, value, tb), tb_offset=tb_offset)
        try:
            info = classify(value)
            if info["cause"] not in ("other", "not_implemented"):
                print("hint: " + hint_for(value).removeprefix("your code raised ").split(" ", 1)[1].lstrip(), flush=True)
        except Exception:
            pass  # a hint is a courtesy: never a second traceback

    shell.set_custom_exc((Exception,), show)
    return True
