"""When your code raises: where (your own line) and why (a cause from a small, fixed vocabulary).

In a notebook, ``coursekit.hints.install()`` (the setup cell of each course notebook calls it) adds
one line under Python's traceback naming the likely cause::

    AttributeError: 'NoneType' object has no attribute 'numpy'
    hint: at line 3 of your cell, in `def count_graph_nodes(t):`: `return t.grad.numpy()`: an
    attribute of None: `.numpy`'s owner is None here (a function that returned nothing, a .grad before backward, ...)

A line of the course's own cells (a task's visible tests, a setup cell, a reveal) is never "your
cell": the hint points at the innermost line of the student's that was running, or, with none,
names the course's cell that raised ("the Task 5.2 test cell raised NameError at its line 11:
..."). Line numbers are the editor's, counting the blank lines IPython drops from a cell's top.
The traceback above the hint leaves out the frames of needle's own answers to the tasks
(``task_answers``, from the tasks' declarations): an error on its way through ``Module.__call__`` or the backward's engine
shows your lines and the error, not a line of an answer.

The course's grader uses the same vocabulary, in two halves so that no string produced by
student code reaches a report: ``classify(exc)`` runs where the exception happened and reduces it
to plain data (a cause, a detail, the innermost frame in a notebook cell); ``message(...)`` builds
the text from the cell's lines as read from the notebook file, showing a detail only when it is
one of a fixed set of names or appears in that very line. The vocabulary is small and bounded
(about five bits a test), so raising chosen exceptions tells a grader's hidden inputs little.
"""
from __future__ import annotations

import functools
import json
import re
import types
from pathlib import Path

# cause -> what the student reads (``{detail}`` is filled only with a checked detail)
CAUSES = {
    "none_attribute": "an attribute of None: {detail} is None here (a function that returned nothing, a leaf's .op, or a .grad before backward)",
    "missing_attribute": "an attribute that this object does not have{detail}",
    "module_attribute": "an attribute that this module does not have{detail}: check its spelling",
    "name_not_defined": "a name not defined in this notebook{detail} (run the cell that defines it, or check its spelling)",
    "shape_mismatch": "a shape mismatch in {detail}: print the shapes going in (needle never broadcasts implicitly: reshape or broadcast_to first)",
    "numpy_shape": "a shape mismatch in {detail}: print the shapes going in (numpy lines up axes from the end; each pair must be equal or 1)",
    "matmul_shape": "a matrix product of mismatched shapes in {detail}: the last axis of the left operand must equal the second-to-last axis of the right (print the shapes: is one transposed, or are they swapped?)",
    "reshape_size": "a reshape into a shape with another number of elements in {detail}: print the shape going in and the one asked for",
    "broadcast_shape": "a broadcast to a shape this tensor cannot reach in {detail}: each axis must match or be 1 and new axes go in front (reshape first, a reduced axis back as size 1)",
    "dtype_mismatch": "a dtype mismatch in {detail}: needle does not promote dtypes: give a tensor you build the dtype of those it meets (dtype=x.dtype)",
    "scalar_dtype": "a scalar that would change the tensor's dtype in {detail}",
    "adjoint_count": ("a gradient that returned {detail}: return one adjoint per input (a tuple of them for an op "
                      "of several inputs, the adjoint itself for an op of one)"),
    "tensor_truth": "a Tensor used as a condition (if, not, and, or, while): its truth value is ambiguous; to check for a missing value test `is None` (or `is not None`)",
    "array_truth": "an array used as a condition (if, not, and, or, while): its truth value is ambiguous; use .any() or .all(), or test `is None` for a missing value",
    "type_mix": "an operation on two types that do not go together{detail}",
    "numpy_scalar": "a numpy scalar where a Python float or int is needed (float(...) converts it)",
    "float_index": "a float where an integer is needed (an index, a size or a count: use // or int(...))",
    "tensor_abs": ("abs() of a needle Tensor, which has no absolute value (needle defines no such op): build what you "
                   "need from needle's ops on Tensors"),
    "tensor_compare": ("a comparison (<, >, <=, >=) with a needle Tensor, which defines none: numpy's functions do not "
                       "work on needle Tensors either (np.maximum and np.where compare them); use needle's ops on "
                       "Tensors (such as ndl.ops.relu), or compare t.numpy()"),
    "tuple_as_int": ("a tuple where separate integers are needed: np.random.randn and np.random.rand take each size "
                     "as an argument of its own, randn(rows, cols); np.zeros, np.ones and np.random.standard_normal "
                     "take one shape tuple"),
    "none_used": "None used as a value (a function that forgot its return statement?)",
    "none_operand": "None as an operand{detail}",
    "not_iterable": "iterating over {detail} (a for loop, zip or unpacking), which cannot be iterated",
    "not_subscriptable": "indexing {detail}, which cannot be indexed",
    "not_callable": "calling something that is not a function{detail}",
    "arguments": "a call with the wrong number or names of arguments",
    "unhashable": "an unhashable object as a dict key or in a set{detail}: key by id(...)",
    "recursion": "Python's recursion limit (the grader keeps the default, 1000, whatever sys.setrecursionlimit asks): "
                 "walk deep structures with an explicit stack",
    "not_implemented": "NotImplementedError: the stub is not implemented yet",
    "unpack": ("unpacking into more or fewer names than the value holds (a, b = ...): looping over a dict gives "
               "its keys alone; .items() gives (key, value) pairs"),
    "index": "an index out of range",
    "index_0d": ("indexing a value that is one number (a 0-dimensional array or a numpy scalar, such as a loss that is "
                 "a mean or a sum): it has no axis to index; take its number with .item() or float(...)"),
    "transpose_pair": ("needle's transpose with a permutation of every axis: it swaps two axes, given as a pair (i, j) "
                       "(the last two by default), as dlsys's and torch.transpose do, not numpy's full permutation"),
    "array_with_tensor": ("an operation between a numpy array and a needle Tensor, which do not mix: wrap the array in "
                          "needle.Tensor (with the tensor's dtype) to stay in the graph, or compute on t.numpy()"),
    "data_not_array": ("an assignment to .data of something that is neither a Tensor nor a numpy array: .data replaces "
                       "a tensor's values (same shape and dtype); to clear a gradient, set p.grad itself to None"),
    "tensor_new_attribute": ("a new attribute{detail} set on a needle Tensor, which takes none (its attributes are "
                             "fixed: op, inputs, cached_data, requires_grad, grad): keep such state in a dict of your "
                             "own, keyed by id(...) of the tensor"),
    "key": "a missing dict key",
    "zero_division": "a division by zero",
    "memory": "running out of memory",
    "module_unavailable": "a module that cannot be imported where your code runs{detail}: the grader provides "
                          "numpy, needle and the common modules of Python's standard library, and the tasks need "
                          "nothing else",
    "op_on_array": "an op called on {detail}: an op's inputs are needle Tensors (wrap arrays in needle.Tensor); "
                   "its compute() is what works on numpy arrays",
    "empty_max": "max() (or min()) of an empty sequence (a leaf has no inputs to take it over, an empty list has "
                 "nothing): handle the empty case before taking it",
    "number_of_tensor": "float() or int() of a needle Tensor: a Tensor is not a Python number; take the number from "
                        "its numpy array (a one-element array's .item())",
    "refused": "something the grading sandbox does not provide (threads, processes, files outside your folder, the network)",
    "other": "",
}

# Types whose names may be repeated back (any other type is "an object").
KNOWN_TYPES = frozenset({
    "Tensor", "TensorTuple", "Parameter", "Value", "ndarray", "list", "tuple", "dict", "set", "float", "int",
    "bool", "str", "NoneType", "float32", "float64", "int64", "int32", "function", "method", "generator",
    "module", "range", "map", "zip", "builtin_function_or_method",
})
# Modules whose names may be repeated back (another module is "this module" unless its name is in the line).
KNOWN_MODULES = frozenset({
    "numpy", "numpy.random", "numpy.linalg", "needle", "needle.ops", "needle.init", "needle.nn", "needle.optim",
    "needle.data", "needle.autograd", "math", "random", "itertools", "functools", "collections",
})
# Operator symbols of Python's "unsupported operand type(s) for ...": may be repeated back when in the line.
OPERATORS = frozenset({"+", "-", "*", "/", "//", "%", "**", "@", "+=", "-=", "*=", "/=", "//=", "@=", "**=", "%=",
                       "<", ">", "<=", ">=", "&", "|", "^", "<<", ">>", "divmod()", "pow()"})
# needle's own answers to the course's tasks: what the tasks' declarations say needle must not
# contribute (their own work, in tasks.json beside the notebooks), but for the tools that walk
# graphs without being anyone's answer. A traceback in a notebook leaves their frames out, so an
# error on its way through one (Module.__call__ on the way to your forward, the backward's engine on
# the way to your gradient, needle's FusedAddScalars given a wrong adjoint) prints no line of an answer.
NOT_ANSWERS = ("needle.viz", "needle.gradcheck")


def task_answers(folder: Path | None = None) -> tuple[str, ...]:
    """The needle names of every task's own work, read from tasks.json in ``folder`` (the notebook's
    folder, where a kernel runs); none where there is no such file."""
    from .ladder import manifest_file

    try:
        tasks = json.loads(manifest_file(folder).read_text(encoding="utf-8"))
        names = {name for task in tasks.values() for name in task.get("own_work", [])}
    except (OSError, ValueError, AttributeError, TypeError):
        return ()
    return tuple(sorted(n for n in names if isinstance(n, str) and n.split(".")[0] == "needle"
                        and not n.startswith(NOT_ANSWERS)))


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
        m = re.match(r"'(\w+)' object has no attribute '(\w+)'|type object '(\w+)' has no attribute '(\w+)'", text)
        module = re.match(r"module '([\w.]+)' has no attribute '(\w+)'", text)
        if m and m.group(1) == "NoneType":
            cause, detail = "none_attribute", m.group(2)
        elif m:
            cause, detail = "missing_attribute", f"{m.group(1) or m.group(3)}.{m.group(2) or m.group(4)}"
        elif module:
            cause, detail = "module_attribute", f"{module.group(1)}:{module.group(2)}"
    elif isinstance(exc, ModuleNotFoundError):
        m = re.match(r"No module named '([\w.]+)'", text)
        cause, detail = "module_unavailable", m.group(1) if m else ""
    elif isinstance(exc, NameError):
        m = re.match(r"(?:name|free variable|cannot access free variable) '(\w+)'", text)
        cause, detail = "name_not_defined", m.group(1) if m else ""
    elif isinstance(exc, TypeError):
        cause, detail = _type_error(text)
    elif isinstance(exc, ValueError):
        cause, detail = _value_error(text)
    elif isinstance(exc, IndexError):
        cause = "index_0d" if "0-dimensional" in text or "invalid index to scalar variable" in text else "index"
    elif isinstance(exc, KeyError):
        cause = "key"
    elif kind == "Refused" or isinstance(exc, PermissionError):
        cause = "refused"
    return {"cause": cause, "detail": detail[:80], "where": _where(exc)}


def _value_error(text: str) -> tuple[str, str]:
    """needle's own ValueErrors start with the op's name ("add: shapes (2,) and (3,) differ"):
    only those are needle refusing to broadcast; numpy's broadcast by its own rules."""
    m = re.match(r"(\w+): shapes .* are not aligned", text)
    if m:
        return "matmul_shape", m.group(1)  # needle's matmul: inner dimensions differ
    m = re.match(r"(\w+): (shapes|dtypes|the scalar) ", text)
    if m:
        return {"shapes": "shape_mismatch", "dtypes": "dtype_mismatch", "the scalar": "scalar_dtype"}[m.group(2)], m.group(1)
    m = re.match(r"\w+\.gradient returned (\d+) adjoints? for an op with (\d+) inputs?", text)
    if m:  # needle's backward, on what a gradient returned: the counts alone cross
        return "adjoint_count", f"{m.group(1)}/{m.group(2)}"
    if text.startswith("transpose swaps two axes"):  # needle's transpose given numpy's permutation
        return "transpose_pair", ""
    m = re.match(r"(\w+): cannot reshape ", text)
    if m:
        return "reshape_size", m.group(1)
    m = re.match(r"(\w+): cannot broadcast ", text)
    if m:
        return "broadcast_shape", m.group(1)
    if "truth value of an array" in text:
        return "array_truth", ""
    if re.match(r"(not enough|too many) values to unpack", text):
        return "unpack", ""
    if re.match(r"(max|min)\(\) (arg is an|iterable argument is) empty", text):  # both wordings (3.11, 3.12+)
        return "empty_max", ""
    if "not aligned" in text or "mismatch in its core dimension" in text:
        return "matmul_shape", "numpy"  # np.dot / np.matmul / @ on arrays
    if "cannot reshape" in text:
        return "reshape_size", "numpy"
    if "could not be broadcast" in text:
        return "numpy_shape", "numpy"
    return "other", ""


def _type_error(text: str) -> tuple[str, str]:
    if "truth value of a needle.Tensor" in text:
        return "tensor_truth", ""
    if "numpy.float" in text or "numpy.int" in text or "np.float" in text:
        return "numpy_scalar", ""
    if re.search(r"'float' object cannot be interpreted as an integer|indices must be integers|integer argument expected, got float", text):
        return "float_index", ""
    if "'tuple' object cannot be interpreted as an integer" in text:
        return "tuple_as_int", ""
    if re.match(r"(float|int)\(\) argument must be .*, not '(Tensor|Parameter)'", text):
        return "number_of_tensor", ""
    m = re.match(r"\w+: its inputs must be needle Tensors, got (\w+)", text)  # an op called on an array
    if m:
        return "op_on_array", m.group(1)
    # a binary operator or a comparison on two types: (operator, left type, right type)
    m = re.match(r"'(\S+)' not supported between instances of '(\w+)' and '(\w+)'", text)
    if m and "NoneType" not in m.groups()[1:] and {"Tensor", "Parameter"} & set(m.groups()[1:]):
        return "tensor_compare", ""
    mixed = re.match(r"unsupported operand type\(s\) for .+: '([\w.]+)' and '([\w.]+)'", text)
    if mixed and {mixed.group(1).removeprefix("numpy."), mixed.group(2).removeprefix("numpy.")} in (
            {"ndarray", "Tensor"}, {"ndarray", "Parameter"}):
        return "array_with_tensor", ""
    if text.startswith("Tensor.data must be set to a Tensor or numpy array"):
        return "data_not_array", ""
    m = re.match(r"unsupported operand type\(s\) for (.+): '(\w+)' and '(\w+)'", text) or m
    if m:
        if "NoneType" in m.groups()[1:]:
            return "none_operand", m.group(1)
        return "type_mix", f"{m.group(2)},{m.group(3)}"
    m = re.match(r"bad operand type for unary (\S+): '(\w+)'", text)
    if m and m.group(2) == "NoneType":
        return "none_operand", m.group(1)
    if re.match(r"bad operand type for abs\(\): '(Tensor|Parameter)'", text):
        return "tensor_abs", ""
    m = re.match(r"(?:Tensor (\S+)|\w+): expected .*scalar.*, got (\w+)", text)  # needle's ScalarError
    if m and m.group(2) == "NoneType":
        return "none_operand", m.group(1) or ""
    if m and m.group(1):  # `tensor (op) other`: other is neither a Tensor nor a scalar
        return "type_mix", f"Tensor,{m.group(2)}"
    m = re.match(r"'(\w+)' object is not (callable|subscriptable|iterable)", text)
    if m:
        kind = {"callable": "not_callable", "subscriptable": "not_subscriptable", "iterable": "not_iterable"}[m.group(2)]
        return kind, m.group(1)
    m = re.match(r"cannot unpack non-iterable (\w+) object", text)
    if m:
        return "not_iterable", m.group(1)
    m = re.search(r"argument after \* must be an iterable, not (\w+)|zip\(\) argument #\d+ must support iteration", text)
    if m:
        return "not_iterable", m.group(1) or ""
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
    if cause == "module_unavailable":  # the module the line imports (the one missing may be its dependency)
        imported = re.match(r"\s*(?:from\s+([\w.]+)\s+import\b|import\s+([\w.]+))", line)
        top = (imported.group(1) or imported.group(2)) if imported else detail
        top = top.split(".")[0]
        return f" (`{top}`)" if _IDENTIFIER.match(top) and re.search(rf"\b{re.escape(top)}\b", line) else ""
    if cause == "missing_attribute":
        owner, _, attr = detail.partition(".")
        if _IDENTIFIER.match(attr) and re.search(rf"\.{re.escape(attr)}\b", line):
            return f" (`.{attr}` of {_article(owner) if owner in KNOWN_TYPES else 'an object'})"
        return ""
    if cause == "module_attribute":
        module, _, attr = detail.partition(":")
        if not (_IDENTIFIER.match(attr) and re.search(rf"\.{re.escape(attr)}\b", line)):
            return ""
        if module in KNOWN_MODULES or _IDENTIFIER.match(module) and re.search(rf"\b{re.escape(module)}\b", line):
            return f" ({module} has no attribute `{attr}`)"
        return f" (it has no attribute `{attr}`)"
    if cause in ("shape_mismatch", "dtype_mismatch", "scalar_dtype", "numpy_shape", "matmul_shape", "reshape_size",
                 "broadcast_shape"):
        return "a numpy operation" if detail == "numpy" else f"needle's `{detail}`" if detail in op_names else "a needle op"
    if cause == "none_operand":
        return f" of `{detail}`" if detail in OPERATORS and detail.rstrip("()") in line else ""
    if cause == "adjoint_count":
        m = re.fullmatch(r"(\d{1,3})/(\d{1,3})", detail)
        if not m:
            return "some adjoints"
        grads, inputs = int(m.group(1)), int(m.group(2))
        return f"{grads} adjoint{'s' if grads != 1 else ''} for an op with {inputs} input{'s' if inputs != 1 else ''}"
    if cause in ("not_iterable", "not_subscriptable", "op_on_array"):
        return _article(detail) if detail in KNOWN_TYPES else ""
    if cause in ("type_mix", "not_callable", "unhashable"):
        names = detail.split(",")
        if all(n in KNOWN_TYPES for n in names):
            return " (" + " and ".join(_article(n) for n in names) + ")"
        return ""
    return ""


def _article(type_name: str) -> str:
    """A known type's name as the student reads it: "a Tensor", "an int", "an ndarray", "None"."""
    if type_name == "NoneType":
        return "None"
    return ("an " if type_name[:1] in "aeiouAEIOU" or type_name == "ndarray" else "a ") + type_name


_CALL = re.compile(r"(?<![\w.])(?!(?:if|elif|while|not|and|or|in|is|return|for|print|len|isinstance|float|int|lambda)\b)"
                   r"[A-Za-z_][\w.]*\s*\(")


def _line_advice(cause: str, detail: str, line: str) -> str:
    """What the line itself says about the likely culprit (read from the notebook, never from
    the exception): a call whose result is used, an ``axes`` argument, a ``gradient(...)``."""
    mentions_axes = re.search(r"\bax(?:es|is)\b", line) is not None
    if cause == "none_operand":
        if _CALL.search(line):
            return (": a value here is None (a function you call that forgot its return statement? or a "
                    "variable still None, such as a .grad before backward?)")
        return (": a value here is None (a variable that holds None: a .grad before backward, a None that "
                "gradient() gives for an input with no adjoint, an argument left at None); test `is None` first")
    if cause == "missing_attribute" and "of a bool" in detail and re.search(r"==|!=", line):
        return (": a comparison with a needle Tensor gives one bool, not an array (a Tensor has no element-wise ==): "
                "compare numpy arrays (t.numpy())")
    if cause == "missing_attribute" and "of a TensorTuple)" in detail:
        return (": a TensorTuple holds several Tensors (a tuple op's value, or the adjoint of one: out_grad of a "
                "TensorTupleOp's gradient); index it, t[i], for the Tensor you need")
    if cause == "arguments" and re.search(r"\bParameter\s*\(", line):
        return (": a Parameter takes what a Tensor takes (Parameter(value, dtype=..., requires_grad=...)); "
                "an __init__ of your Parameter (Task 4.1) must accept and pass them on")
    if cause in ("not_iterable", "not_subscriptable"):
        if detail in ("None", "an int") and mentions_axes:
            return ": axes may be None, an int or a tuple (handle each form)"
        if detail == "a Tensor":
            return ": a single Tensor where a tuple was expected? (its values: index t.numpy())"
        if detail == "None":
            return ": a value here is None (a function that returned nothing, or a variable left at None)"
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
    """A source line as shown in a report: its code without a comment and with each string
    literal's text shown as ... (the reports quote code, not words a student wrote to whoever
    reads them), stripped, printable, short."""
    text = "".join(c if c.isprintable() else "?" for c in _code_only(text).strip())
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _code_only(line: str) -> str:
    """``line`` without its comment and with its string literals emptied to "...", as Python's
    tokenizer reads it (a # inside a string is not a comment). A line the tokenizer cannot finish
    (an open bracket, a string that goes on to the next line) still gives the tokens before."""
    import io
    import tokenize

    text = line.lstrip()
    kept, done = [], 0
    try:
        for token in tokenize.generate_tokens(io.StringIO(text + "\n").readline):
            if token.type == tokenize.COMMENT or token.start[0] > 1:
                return "".join(kept) + text[done:token.start[1] if token.start[0] == 1 else len(text)]
            if token.type == tokenize.ERRORTOKEN and token.string.strip() in ("'", '"'):  # an unclosed string
                return "".join(kept) + text[done:token.start[1]] + "..."
            if token.type == tokenize.STRING:
                body = token.string.lstrip("rRbBuUfF")
                quote = body[:3] if body[:3] in ('"""', "'''") else body[:1]
                kept.append(text[done:token.start[1]] + token.string[: len(token.string) - len(body)] + quote + "..." + quote)
                done = token.end[1] if token.end[0] == 1 else len(text)
    except tokenize.TokenError as exc:  # a string left open: nothing of it is quoted
        where = exc.args[1] if len(exc.args) > 1 and isinstance(exc.args[1], tuple) else None
        if "string" in str(exc.args[0]) and where and where[0] == 1:
            return "".join(kept) + text[done:where[1]] + "..."
    except SyntaxError:
        return "".join(kept)
    return "".join(kept) + text[done:]


def message(exc_name: str, info: dict, cell_lines: list[str], line_no: int, op_names: frozenset | None = None,
            course_cell: str = "") -> str:
    """"your code raised X at line N of your cell `head`: `line`: cause", from trusted pieces:
    the cell's lines (read from the notebook), and a cause and detail checked against them.
    ``course_cell`` names the course's own cell that raised ("the Task 5.2 test cell", see
    ``course_cell``): the text then says so, and quotes none of its lines."""
    cause = info.get("cause") if info.get("cause") in CAUSES else "other"
    line = cell_lines[line_no - 1] if 1 <= line_no <= len(cell_lines) else ""
    place = ""
    if course_cell:  # not the student's cell: where it raised, and none of its code (the traceback shows it)
        place = f" at its line {line_no}" if line else ""
    elif line:
        owner = _enclosing_definition(cell_lines, line_no)
        inside = f", in `{printable_line(owner, 60)}`" if owner else ""
        place = f" at line {line_no} of your cell{inside}: `{printable_line(line)}`"
    raw = info.get("detail", "")
    if cause == "missing_attribute" and isinstance(raw, str):
        owner, _, attr = raw.partition(".")
        if owner in ("Tensor", "Parameter", "TensorTuple") and _IDENTIFIER.match(attr) and re.search(
                rf"\.{re.escape(attr)}\s*(?:[-+*/@]|//|\*\*)?=(?!=)", line):  # the line sets it: a new attribute
            cause, raw = "tensor_new_attribute", f" (`.{attr}`)"
    detail = raw if cause == "tensor_new_attribute" else _checked_detail(
        cause, raw, line, op_names if op_names is not None else needle_op_names())
    advice = _line_advice(cause, detail, line)
    if cause == "none_attribute":
        detail = f"`.{detail}`'s owner" if detail else "something"
    elif cause == "name_not_defined" and detail:
        detail = f" (`{detail}`)"
    elif cause == "op_on_array":
        detail = detail or "something that is not a Tensor"
    elif cause in ("not_iterable", "not_subscriptable"):
        # axes that are None or an int: one mistake, one hint (whichever form made it raise)
        detail = "None or an int" if detail in ("None", "an int") and re.search(r"\bax(?:es|is)\b", line) else detail or "something"
    if cause == "not_implemented" and not course_cell:
        # the stub's own line (nbgrader's) is certain; another raise (a base class's forward) is only that
        stub = line.strip() == "raise NotImplementedError()"
        return "your code raised NotImplementedError" + (": the stub is not implemented yet" if stub else "") + place
    what = CAUSES[cause].format(detail=detail) + advice
    if cause in ("none_attribute", "missing_attribute") and re.search(r"\.op\.inputs\b", line):
        # a leaf's op is None, any other op has no .inputs: one mistake, one hint
        what = "`.op.inputs`: the inputs belong to the node, not to its op (a leaf's op is None; an op holds no inputs)"
    if cause in ("not_iterable", "not_subscriptable") and detail == "a Tensor" and re.search(r"\.gradient\s*\(", line):
        # zip(..., op.gradient(...)) iterates it, needle's own gradients index it: one mistake, one hint
        what = ("a single Tensor where a tuple was expected: an op's gradient() gives one Tensor when the op has one "
                "input; gradient_as_tuple always gives a tuple, one adjoint per input")
    if cause == "name_not_defined" and isinstance(raw, str) and _IDENTIFIER.match(raw) and line and not course_cell:
        method = _argument_of_another_method(raw, cell_lines, line_no)
        if method:  # an __init__ argument read in another method (c0 for self.c0): one mistake, one hint
            what = (f"`{raw}` is an argument of another method of this class (`{printable_line(method, 60)}`), a local "
                    "name that is gone once that method returns: keep it on the object there, and read it from the "
                    "object here")
    if course_cell:
        return _in_course_cell(exc_name, cause, detail, what, place, course_cell)
    return f"your code raised {exc_name or 'an exception'}{place}" + (f": {what}" if what else "")


def _argument_of_another_method(name: str, lines: list[str], line_no: int) -> str:
    """The ``def`` line of another method in the cell that takes ``name`` as an argument, if the
    line that raised is in a method that does not ("" otherwise)."""
    here = _enclosing_definition(lines, line_no)
    takes = re.compile(rf"\s*def\s+\w+\s*\(\s*self\b[^)]*\b{re.escape(name)}\b")
    if not here.startswith("def ") or takes.match(here):
        return ""
    return next((line.strip() for line in lines if takes.match(line)), "")


def _in_course_cell(exc_name: str, cause: str, detail: str, what: str, place: str, course_cell: str) -> str:
    """The text for an exception a course's cell raised: "the Task 5.2 test cell raised X at its
    line N, on what your code gave it: cause"."""
    if cause == "name_not_defined":
        # a course cell uses the names the tasks (or its setup cells) define: the cell that defines
        # it failed or was not run; the spelling is the course's, so "check its spelling" misleads
        name = detail.removeprefix(" (").removesuffix(")") or "a name it uses"
        what = f"{name} is not defined: the cell that defines it has not run successfully (run it and fix its error first)"
    # a test or a reveal raises on what the student's functions returned (a setup cell on its own)
    on_yours = ", on what your code gave it" if course_cell.endswith(("test cell", "reveal cell")) and cause not in (
        "name_not_defined", "module_unavailable") else ""
    return f"{course_cell} raised {exc_name or 'an exception'}{place}{on_yours}" + (f": {what}" if what else "")


# The course's own cells, known by their source (a kernel sees no cell metadata): a task's
# visible tests ("# Task 5.2 - visible tests ..."), the locked setup and given-code cells, and
# the reveals (hidden source, `with reveal(...)` from coursekit.reveal). Any other cell is the
# student's: their task cells, the cells they add, and the notebook's open worked examples.
_TEST_CELL = re.compile(r"#\s*Task (\d+(?:\.\d+)*) - visible tests\b")
_SETUP_CELL = re.compile(r"#\s*(?:Environment check|Setup for |Given code)")
_REVEAL = re.compile(r"\s*with\s+reveal\s*\(")


def course_cell(lines: list[str]) -> str:
    """What the hint calls a cell the course wrote ("the Task 5.2 test cell", "a setup cell",
    "a reveal cell"), from the cell's lines; "" for a cell of the student's."""
    first = next((line.strip() for line in lines if line.strip()), "")
    test = _TEST_CELL.match(first)
    if test:
        return f"the Task {test.group(1)} test cell"
    if _SETUP_CELL.match(first):
        return "a setup cell"
    if any(_REVEAL.match(line) for line in lines):
        return "a reveal cell"
    return ""


def _is_cell(name: str) -> bool:
    """A notebook cell's file: IPython's (``/tmp/ipykernel_*/N.py``, ``<ipython-input-*>``) or
    the grader's ``<cell N>``."""
    return "ipykernel_" in name or name.startswith("<ipython-input-") or _CELL.match(name) is not None


def _cell_lines(name: str) -> list[str]:
    import linecache

    return [line.rstrip("\n") for line in linecache.getlines(name)]


def _cell_frame(tb):
    """(file, line) of the frame to show: the innermost in a cell of the student's, else (no
    line of theirs on the stack: a test raised on what their code returned, or called a name
    that their failed cell never defined) the innermost in one of the course's cells. A student
    line below a course cell's is the one to fix; so is one that calls a course cell's helper."""
    innermost = theirs = None
    while tb is not None:
        name = tb.tb_frame.f_code.co_filename
        if _is_cell(name):
            innermost = (name, tb.tb_lineno)
            if not course_cell(_cell_lines(name)):
                theirs = innermost
        tb = tb.tb_next
    return theirs or innermost


def _blank_lines_dropped(name: str, lines: list[str]) -> int:
    """How many blank lines IPython dropped from the top of the cell run as file ``name``
    (it runs a cell from its first line of code, so linecache's line N is the editor's line N +
    this). Counted in the raw input history's entry of that run: IPython's compiler maps the
    file to its execution count (ipykernel names the file by a hash of the raw cell), and the
    entry is checked against the source that ran; else the latest entry that ran this source."""
    try:
        from IPython import get_ipython
    except ImportError:
        return 0
    shell = get_ipython()
    history = getattr(shell, "history_manager", None)
    if history is None:
        return 0
    raw, parsed = history.input_hist_raw, history.input_hist_parsed

    def code(text_lines):
        text_lines = list(text_lines)
        while text_lines and not text_lines[-1].strip():  # the history keeps no trailing newlines
            text_lines.pop()
        return text_lines

    ran = code(lines)
    number = getattr(getattr(shell, "compile", None), "_filename_map", {}).get(name)
    tried = ([number] if isinstance(number, int) else []) + list(range(min(len(raw), len(parsed)) - 1, 0, -1))
    for n in tried:
        if 0 < n < min(len(raw), len(parsed)) and code(parsed[n].splitlines()) == ran:
            raw_lines = raw[n].splitlines()
            # IPython's leading_empty_lines: lines that are empty or whitespace only
            return next((i for i, line in enumerate(raw_lines) if line and not line.isspace()), 0)
    return 0


NO_LINE_RUNNING = " (while no line of yours was running: on something your code returned or stored)"


def no_line_running(text: str, exc_name: str) -> str:
    """``text`` said of an exception that no line of the student's raised (needle's backward, on a
    gradient's result): "your code raised X" gets that said after it."""
    raised = f"your code raised {exc_name or 'an exception'}"
    return raised + NO_LINE_RUNNING + text[len(raised):] if text.startswith(raised) else text


def hint_for(exc: BaseException) -> str:
    """The hint for an exception raised in a notebook (its cell lines from linecache, numbered
    as the editor numbers them)."""
    where = _cell_frame(exc.__traceback__)
    if where is None:
        return message(type(exc).__name__, classify(exc), [], 0)
    lines = _cell_lines(where[0])
    dropped = _blank_lines_dropped(where[0], lines)
    return message(type(exc).__name__, classify(exc), [""] * dropped + lines, where[1] + dropped,
                   course_cell=course_cell(lines))


def _answer_codes() -> frozenset:
    return _codes_of(task_answers())


@functools.cache
def _codes_of(answers: tuple[str, ...]) -> frozenset:
    """The code objects of the tasks' answers in needle (``task_answers``) and of the code nested in
    them (comprehensions, generators, inner functions)."""
    from .trace import functions, needle_object

    found, stack = set(), [fn.__code__ for name in answers for fn in functions(needle_object(name))]
    while stack:
        code = stack.pop()
        found.add(code)
        stack.extend(c for c in code.co_consts if isinstance(c, types.CodeType))
    return frozenset(found)


def without_answer_frames(tb):
    """``tb`` without the frames of needle's answers to the tasks (a new chain; ``tb`` if none)."""
    codes, kept, frame_left_out = _answer_codes(), [], False
    while tb is not None:
        if tb.tb_frame.f_code in codes:
            frame_left_out = True
        else:
            kept.append(tb)
        tb = tb.tb_next
    if not frame_left_out:
        return kept[0] if kept else None
    chain = None
    for entry in reversed(kept):
        chain = types.TracebackType(chain, entry.tb_frame, entry.tb_lasti, entry.tb_lineno)
    return chain


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
        try:
            shown = without_answer_frames(tb)
        except Exception:  # never lose the traceback itself
            shown = tb
        self.showtraceback((etype, value, shown), tb_offset=tb_offset)
        try:
            info = classify(value)
            if info["cause"] not in ("other", "not_implemented"):
                text = hint_for(value)
                if text.startswith("your code raised "):  # the exception's name is on the line above
                    text = text.removeprefix("your code raised ").split(" ", 1)[1].lstrip()
                print("hint: " + text, flush=True)
        except Exception:
            pass  # a hint is a courtesy: never a second traceback

    shell.set_custom_exc((Exception,), show)
    return True
