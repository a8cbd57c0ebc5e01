"""Flags for the instructor: constructs no honest answer needs, read from the submission's code.

Some facts about a submission can only be seen inside the process that ran it (an object's
identity, "the graph is unchanged"), and that process belongs to the student. What the trusted
side can always do is read the code: this module parses each cell (never runs it) and lists
the places that reach for raw memory, file descriptors, code objects, the interpreter's
internals, look-alike names, or a library function that a task declares as doing its job
(the suite's ``OWN_WORK``: the worker refuses it; this reading backs that up). A flag costs no
points; the instructor reviews the line. The words are fixed here: no text of the submission's
appears in a flag but its cell and line.

Names are resolved, not matched as spelt: ``from numpy import logaddexp as la``, ``f = np.logaddexp``,
``getattr(np, "logaddexp")`` and ``numpy._core.umath.logaddexp`` all name numpy's logaddexp.
Look-alike identifiers are found by Unicode's confusables skeleton (UTS #39,
``confusables_table``); Greek identifiers are math notation (Jupyter types ``\\tau<TAB>``), so
a Greek name beside a Latin one with the same skeleton (``σ`` and ``o``) is not flagged.
"""
from __future__ import annotations

import ast
import unicodedata

from coursekit.trace import declared_object

from .confusables_table import PROTOTYPES

RAW_MEMORY = "raw memory access"
FILE_DESCRIPTORS = "file-descriptor games"
CODE_SURGERY = "code, closure or frame surgery"
INTERPRETER = "the interpreter's internals"
DYNAMIC_CODE = "running code built from strings"
TYPE_TRICKS = "metaclass or isinstance tricks"
LOOK_ALIKE = "a look-alike or invisible identifier"
GRADER = "the grader's own code"
LIBRARY_WORK = "a library function that a task declares as its own work"

ATTRIBUTES = {
    "__array_interface__": RAW_MEMORY, "__array_struct__": RAW_MEMORY, "as_strided": RAW_MEMORY,
    "ctypeslib": RAW_MEMORY, "from_address": RAW_MEMORY, "addressof": RAW_MEMORY, "string_at": RAW_MEMORY,
    "memmove": RAW_MEMORY, "memset": RAW_MEMORY, "ctypes": RAW_MEMORY, "_ctypes": RAW_MEMORY,
    "dup": FILE_DESCRIPTORS, "dup2": FILE_DESCRIPTORS, "fdopen": FILE_DESCRIPTORS, "closerange": FILE_DESCRIPTORS,
    "__code__": CODE_SURGERY, "__closure__": CODE_SURGERY, "__globals__": CODE_SURGERY, "__kwdefaults__": CODE_SURGERY,
    "__defaults__": CODE_SURGERY, "co_code": CODE_SURGERY, "cell_contents": CODE_SURGERY, "f_back": CODE_SURGERY,
    "f_globals": CODE_SURGERY, "f_locals": CODE_SURGERY, "tb_frame": CODE_SURGERY, "gi_frame": CODE_SURGERY,
    "__builtins__": CODE_SURGERY, "__subclasses__": CODE_SURGERY, "__bases__": CODE_SURGERY, "__mro__": CODE_SURGERY,
    "CodeType": CODE_SURGERY, "FunctionType": CODE_SURGERY, "__traceback__": CODE_SURGERY, "tb_next": CODE_SURGERY,
    "f_code": CODE_SURGERY, "f_builtins": CODE_SURGERY, "gi_code": CODE_SURGERY, "cr_frame": CODE_SURGERY,
    "ag_frame": CODE_SURGERY, "FileIO": FILE_DESCRIPTORS,
    "modules": None, "_getframe": INTERPRETER, "settrace": INTERPRETER,
    "setprofile": INTERPRETER, "addaudithook": INTERPRETER, "get_objects": INTERPRETER, "get_referrers": INTERPRETER,
    "get_referents": INTERPRETER,
    "__instancecheck__": TYPE_TRICKS, "__subclasscheck__": TYPE_TRICKS, "__class_getitem__": TYPE_TRICKS,
}
MODULES = {
    "ctypes": RAW_MEMORY, "_ctypes": RAW_MEMORY, "mmap": RAW_MEMORY, "cffi": RAW_MEMORY,
    "gc": INTERPRETER, "inspect": INTERPRETER, "importlib": INTERPRETER, "marshal": INTERPRETER, "sys": None,
    "os": None, "posix": None, "types": None, "dis": INTERPRETER, "_thread": INTERPRETER, "threading": INTERPRETER,
    "signal": INTERPRETER, "builtins": INTERPRETER, "code": DYNAMIC_CODE, "codeop": DYNAMIC_CODE,
    "autograder": GRADER,
}
# Attributes flagged only on these modules (``sys.modules``, ``os.read``): elsewhere they are ordinary.
MODULE_ATTRIBUTES = {
    ("sys", "modules"): INTERPRETER, ("os", "read"): FILE_DESCRIPTORS, ("os", "write"): FILE_DESCRIPTORS,
    ("os", "close"): FILE_DESCRIPTORS, ("os", "open"): FILE_DESCRIPTORS, ("os", "pipe"): FILE_DESCRIPTORS,
}
MODULE_ATTRIBUTES.update({("posix", attr): what for (module, attr), what in MODULE_ATTRIBUTES.items() if module == "os"})
# getattr on these modules with a name that is not a plain string: its attribute cannot be read here.
COMPUTED_NAME_ON = {"os": FILE_DESCRIPTORS, "posix": FILE_DESCRIPTORS, "io": FILE_DESCRIPTORS, "_io": FILE_DESCRIPTORS,
                    "sys": INTERPRETER, "builtins": INTERPRETER}
CALLS = {"exec": DYNAMIC_CODE, "eval": DYNAMIC_CODE, "compile": DYNAMIC_CODE, "__import__": DYNAMIC_CODE,
         "breakpoint": INTERPRETER, "globals": None}
# Characters that draw as nothing.
INVISIBLE = {"\u3164", "\u115f", "\u1160", "\uffa0", "\u200b", "\u200c", "\u200d", "\u2060", "\ufeff", "\u180e"}


def _skeleton(name: str) -> str:
    """UTS #39's skeleton: NFD, each character replaced by its prototype, NFD again."""
    return unicodedata.normalize("NFD", unicodedata.normalize("NFD", name).translate(PROTOTYPES))


def _greek_notation(name: str) -> bool:
    """A name of Greek letters (with digits or _): what Jupyter's \\alpha<TAB> completion types."""
    letters = [c for c in name if c.isalpha()]
    return bool(letters) and all(unicodedata.name(c, "").startswith("GREEK ") for c in letters) \
        and all(c.isalpha() or c.isdigit() or c == "_" for c in name)


def _looks_alike(name: str, other: str) -> bool:
    """Two different identifiers with the same skeleton, one of them not ASCII (``l1`` and ``ll``
    are the keyboard's own), the non-ASCII one not Greek notation beside an ASCII name."""
    if name == other or name.isascii() and other.isascii():
        return False
    foreign = [n for n in (name, other) if not n.isascii()]
    return not (len(foreign) == 1 and _greek_notation(foreign[0]))


def _dunder(text) -> bool:
    return isinstance(text, str) and "__" in text


def _folded(node: ast.AST) -> str | None:
    """The string an expression of string literals spells ("f_" + "back", f"{'tb'}_frame",
    "".join(("_", "_code_", "_"))), else None."""
    if isinstance(node, ast.Constant):
        return node.value if isinstance(node.value, str) else None
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "join" \
            and len(node.args) == 1 and isinstance(node.args[0], (ast.Tuple, ast.List)):
        glue, parts = _folded(node.func.value), [_folded(e) for e in node.args[0].elts]
        return None if glue is None or None in parts else glue.join(parts)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        left, right = _folded(node.left), _folded(node.right)
        return None if left is None or right is None else left + right
    if isinstance(node, ast.JoinedStr):
        parts = [_folded(v.value if isinstance(v, ast.FormattedValue) else v) for v in node.values]
        return None if None in parts else "".join(parts)
    return None


def _named_attribute(text: str) -> str | None:
    """The flag of a string that names a flagged attribute, alone or in a dotted path (what
    operator.attrgetter takes): a name is as good as the attribute syntax."""
    return next((ATTRIBUTES[part] for part in text.split(".") if ATTRIBUTES.get(part)), None)


def _descriptor_like(call: ast.Call) -> bool:
    """open()'s first argument is a number or computed as one (open(4), open(int("4")))."""
    first = call.args[0] if call.args else None
    if isinstance(first, ast.Constant):
        return type(first.value) is int
    return isinstance(first, (ast.BinOp, ast.UnaryOp)) or isinstance(first, ast.Call) and isinstance(first.func, ast.Name) \
        and first.func.id in ("int", "len", "abs", "round", "ord", "sum", "max", "min")


def _flags_in(tree: ast.AST) -> list[tuple[int, str]]:
    found: list[tuple[int, str]] = []
    imported: dict[str, str] = {}  # local name -> module it stands for
    names: dict[str, int] = {}
    for node in ast.walk(tree):
        line = getattr(node, "lineno", 0)
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            modules = [a.name for a in node.names] if isinstance(node, ast.Import) else [node.module or ""]
            for module in modules:
                top = module.split(".")[0]
                if MODULES.get(top):
                    found.append((line, MODULES[top]))
                if module.endswith("stride_tricks") and any(a.name == "*" for a in node.names):
                    found.append((line, RAW_MEMORY))  # brings as_strided in unnamed (sliding_window_view is a read-only view)
            for alias in node.names:
                base = alias.name if isinstance(node, ast.Import) else f"{node.module}.{alias.name}"
                imported[alias.asname or alias.name.split(".")[0]] = base.split(".")[0] if isinstance(node, ast.Import) else base
                if ATTRIBUTES.get(alias.name):
                    found.append((line, ATTRIBUTES[alias.name]))
                if isinstance(node, ast.ImportFrom) and (node.module, alias.name) in MODULE_ATTRIBUTES:
                    found.append((line, MODULE_ATTRIBUTES[(node.module, alias.name)]))
        elif isinstance(node, ast.Attribute):
            if ATTRIBUTES.get(node.attr):
                found.append((line, ATTRIBUTES[node.attr]))
            if isinstance(node.value, ast.Name):
                module = imported.get(node.value.id, node.value.id)
                if (module, node.attr) in MODULE_ATTRIBUTES:
                    found.append((line, MODULE_ATTRIBUTES[(module, node.attr)]))
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            if CALLS.get(node.func.id):
                found.append((line, CALLS[node.func.id]))
            if node.func.id in ("getattr", "setattr", "delattr", "hasattr") and len(node.args) >= 2:
                name = node.args[1]
                if isinstance(name, ast.Constant) and _dunder(name.value) or isinstance(name, (ast.JoinedStr, ast.BinOp, ast.Call)) \
                        and (_dunder(_folded(name)) or any(isinstance(n, ast.Constant) and (_dunder(n.value) or n.value == "_")
                                                           for n in ast.walk(name))):
                    found.append((line, CODE_SURGERY))
                elif isinstance(name, (ast.JoinedStr, ast.BinOp, ast.Call)) and _named_attribute(_folded(name) or ""):
                    found.append((line, _named_attribute(_folded(name))))
                owner = node.args[0]
                module = imported.get(owner.id, owner.id) if isinstance(owner, ast.Name) else None
                if module and _folded(name) is not None:  # getattr(sys, "modules"): as sys.modules
                    if (module, _folded(name)) in MODULE_ATTRIBUTES:
                        found.append((line, MODULE_ATTRIBUTES[(module, _folded(name))]))
                elif module in COMPUTED_NAME_ON:  # getattr(os, "d" + chr(117) + "p2"): a name hidden from this reading
                    found.append((line, COMPUTED_NAME_ON[module]))
            if node.func.id == "open" and _descriptor_like(node):
                found.append((line, FILE_DESCRIPTORS))  # open(4, "wb"): a file object on a descriptor
            if node.func.id in ("vars", "dir") and node.args and isinstance(node.args[0], ast.Name) \
                    and node.args[0].id in imported and imported[node.args[0].id].split(".")[0] in ("needle", "coursekit", "builtins", "sys"):
                found.append((line, INTERPRETER))
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "open" \
                and isinstance(node.func.value, ast.Name) and imported.get(node.func.value.id, node.func.value.id) in ("io", "_io") \
                and _descriptor_like(node):
            found.append((line, FILE_DESCRIPTORS))  # io.open(4, "wb")
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and _named_attribute(node.value):
            found.append((line, _named_attribute(node.value)))  # attrgetter("tb_frame"), getattr(x, "f_back")
        elif isinstance(node, ast.ClassDef):
            if any(k.arg == "metaclass" for k in node.keywords):
                found.append((line, TYPE_TRICKS))
        elif isinstance(node, ast.FunctionDef) and node.name in ("__instancecheck__", "__subclasscheck__"):
            found.append((line, TYPE_TRICKS))
        elif isinstance(node, ast.Subscript) and isinstance(node.value, ast.Call) and isinstance(node.value.func, ast.Name) \
                and node.value.func.id in ("globals", "vars") and not node.value.args:
            found.append((line, CODE_SURGERY))
        elif isinstance(node, ast.Assign):
            for target in node.targets:
                if isinstance(target, ast.Attribute) and target.attr in ("__class__", "__bases__", "__dict__"):
                    found.append((line, TYPE_TRICKS))
        identifier = node.id if isinstance(node, ast.Name) else node.name if isinstance(node, (ast.FunctionDef, ast.ClassDef)) \
            else node.arg if isinstance(node, ast.arg) else node.attr if isinstance(node, ast.Attribute) else None
        if identifier is not None:
            names.setdefault(identifier, line)
    by_skeleton: dict[str, list[str]] = {}
    for name, line in names.items():
        if any(c in INVISIBLE or unicodedata.category(c) in ("Cf", "Mn") for c in name):
            found.append((line, LOOK_ALIKE))
            continue
        alike = by_skeleton.setdefault(_skeleton(name), [])
        other = next((o for o in alike if _looks_alike(name, o)), None)
        if other is not None:
            found.append((max(line, names[other]) if not name.isascii() else names[other], LOOK_ALIKE))
        alike.append(name)
    return found


# --- what a name refers to: a library function a task declares as its own work ----------------------
def _bindings(trees: list[ast.AST]) -> tuple[dict[str, str], list[str]]:
    """({name: the dotted path it stands for}, modules star-imported) across a notebook's cells:
    imports, and plain assignments of a resolvable expression (``f = np.logaddexp``), followed
    through chains. Where a cell binds it makes no difference (one name, one meaning)."""
    bound: dict[str, str] = {}
    stars: list[str] = []
    assigned: list[tuple[str, ast.AST]] = []
    for node in (n for tree in trees for n in ast.walk(tree)):
        if isinstance(node, ast.Import):
            for alias in node.names:
                bound[alias.asname] = alias.name if alias.asname else None
                if not alias.asname:
                    top = alias.name.split(".")[0]
                    bound[top] = top
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            for alias in node.names:
                if alias.name == "*":
                    stars.append(node.module)
                else:
                    bound[alias.asname or alias.name] = f"{node.module}.{alias.name}"
        elif isinstance(node, (ast.Assign, ast.AnnAssign, ast.NamedExpr)) and node.value is not None:
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            assigned += [(t.id, node.value) for t in targets if isinstance(t, ast.Name)]
    bound = {k: v for k, v in bound.items() if k and v}
    for _ in range(3):  # a = np; b = a.logaddexp; c = b
        for name, value in assigned:
            path = _dotted(value, bound)
            if path is not None:
                bound.setdefault(name, path)
    return bound, stars


def _dotted(node: ast.AST, bound: dict[str, str]) -> str | None:
    """The dotted path an expression names (``np.logaddexp.reduce`` -> "numpy.logaddexp.reduce",
    ``getattr(np, "logaddexp")``, ``vars(np)["logaddexp"]``, ``__import__("numpy")``), else None."""
    if isinstance(node, ast.Name):
        return bound.get(node.id)
    if isinstance(node, ast.Attribute):
        base = _dotted(node.value, bound)
        return None if base is None else f"{base}.{node.attr}"
    if isinstance(node, ast.Call) and node.args:
        func = node.func.id if isinstance(node.func, ast.Name) else node.func.attr if isinstance(node.func, ast.Attribute) else ""
        if func == "getattr" and len(node.args) >= 2:
            base, attr = _dotted(node.args[0], bound), _folded(node.args[1])
            return None if base is None or attr is None else f"{base}.{attr}"
        if func in ("__import__", "import_module"):
            return _folded(node.args[0])
    if isinstance(node, ast.Subscript):  # vars(np)["logaddexp"], np.__dict__["logaddexp"]
        owner = node.value.args[0] if isinstance(node.value, ast.Call) and isinstance(node.value.func, ast.Name) \
            and node.value.func.id == "vars" and len(node.value.args) == 1 else \
            node.value.value if isinstance(node.value, ast.Attribute) and node.value.attr == "__dict__" else None
        base, key = (_dotted(owner, bound), _folded(node.slice)) if owner is not None else (None, None)
        return None if base is None or key is None else f"{base}.{key}"
    return None


def _declared_in(path: str, declared: dict[str, str]) -> str | None:
    """The declared name ``path`` reaches (itself, an attribute of it, the same function under
    another of its library's paths: ``numpy._core.umath.logaddexp`` is ``numpy.logaddexp``)."""
    parts = path.split(".")
    for name in declared:
        if parts[0] != name.split(".")[0]:
            continue
        if path == name or path.startswith(name + ".") or name.rsplit(".", 1)[-1] in parts[1:]:
            return name
        target = declared_object(name)
        if target is not None and any(declared_object(".".join(parts[:k])) is target for k in range(2, len(parts) + 1)):
            return name
    return None


def _library_uses(tree: ast.AST, declared: dict[str, str], bound: dict[str, str], stars: list[str]) -> list[tuple[int, str]]:
    """(line, flag) of each place of ``tree`` that names a declared library function."""
    if not declared:
        return []
    found = []
    for node in ast.walk(tree):
        paths = [_dotted(node, bound)] if isinstance(node, (ast.Name, ast.Attribute, ast.Call, ast.Subscript)) else []
        if isinstance(node, ast.Name) and node.id not in bound:
            paths += [f"{module}.{node.id}" for module in stars]  # from numpy import *
        for path in filter(None, paths):
            name = _declared_in(path, declared)
            if name:
                found.append((getattr(node, "lineno", 0), f"{LIBRARY_WORK} ({name}: Task {declared[name]})"))
    return found


def library_work(own_work: dict) -> dict[str, str]:
    """{library function: its tasks ("3.1, 3.2")} of a suite's ``OWN_WORK`` (needle's names are
    refused in the worker, and the review has nothing to add about them)."""
    tasks: dict[str, list[str]] = {}
    for task, (_, names) in sorted(own_work.items()):
        for name in names:
            if name.split(".")[0] != "needle":
                tasks.setdefault(name, []).append(task)
    return {name: ", ".join(ts) for name, ts in tasks.items()}


def review_flags(cells: list[str], instructors: set[str] = frozenset(), own_work: dict | None = None) -> list[str]:
    """One line per flagged place: "cell C, line L: what" (cells counted from 1, in the order
    the grader runs them). Cells whose source is one of ``instructors`` (the setup cells) are
    the course's own and are not read but for the names they bind (``import numpy as np``).
    ``own_work``: the suite's ``OWN_WORK``, whose library functions are flagged wherever a cell
    names them."""
    from ..notebook import strip_magics

    declared = library_work(own_work or {})
    trees: list[ast.AST | None] = []
    for source in cells:
        try:
            trees.append(ast.parse(strip_magics(source)))
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            trees.append(None)
    bound, stars = _bindings([t for t in trees if t is not None]) if declared else ({}, [])
    flags = []
    for index, (source, tree) in enumerate(zip(cells, trees)):
        if source in instructors or tree is None:
            continue
        for line, what in sorted(set(_flags_in(tree) + _library_uses(tree, declared, bound, stars))):
            flags.append(f"cell {index + 1}, line {line}: {what}")
    return flags
