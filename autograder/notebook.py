"""Reading notebooks and choosing the code the grader runs.

The grader runs, in the instructor's cell order: the instructor's own cells tagged ``setup``
(imports, helpers; taken from ``solutions/``, never from the submission) and the student's
version of every nbgrader solution cell. A student cell is matched by nbgrader ``grade_id``,
then by cell id, then by position among the solution cells, so added, deleted or reordered
cells do not break the match; duplicated copies all run, in order, as they would in a kernel.
Test cells, demos and plots are not run.

A cell the student added (a code cell of neither the instructor's notebook nor nbgrader's) runs
too, right after the solution cell it follows in the student's notebook, as in their kernel:
a task written in a new cell below its stub replaces the stub there as well. Only its
definitions run (def, class, import, and assignments that call nothing): statements that call
things (demos, plots, training runs) become comments, line numbers kept, so the student's own line
numbers still hold (and a name such a line would have set gets a hint that says so).

Submissions are untrusted files: a symlink, a FIFO, a device or an oversized file is refused
without being read, and no value from the file is repeated in an error message.
"""
from __future__ import annotations

import ast
import errno
import json
import os
import re
import stat
import tokenize
from pathlib import Path

MAX_NOTEBOOK_BYTES = 20 * 1024 * 1024
# Only code is graded; what makes a notebook that large is its outputs (a loop's prints).
_CLEAR_OUTPUTS = (": its outputs make it so (only code is graded); clear them (Edit > Clear Outputs of All Cells), "
                  "save and submit again")
MAX_JSON_OBJECTS = 100_000  # cells, outputs, metadata: an honest notebook has a few thousand
MAX_JSON_STRINGS = 1_000_000
# The code of one cell: the largest of the course's is about 10 KB. Parsing Python takes a few
# hundred times its size in memory: 20 MB of code in one cell (a list literal, within every limit
# above) took 9 GB in the grader's own process, and its worker timed out compiling it, which was
# reported as the grader's failure (red team, round 9).
MAX_CELL_CODE = 256 * 1024
# And of the whole notebook: the course's largest holds 40 KB of code in 6,500 syntax-tree nodes.
# 52 cells of 250 KB of list literals (13 MB, each under the cell's cap) cost the grader's own
# processes 131 CPU seconds to read, parse and review (red team, round 12).
MAX_NOTEBOOK_CODE = 1024 * 1024
MAX_AST_NODES = 200_000
_KEEP_DATA_OUT = "keep data out of the code (load it, or compute it)"
SETUP_TAG = "setup"


_MAGIC = re.compile(r"^([ \t]*)[%!].*$", re.MULTILINE)


def strip_magics(source: str) -> str:
    """IPython's magics and shell escapes (``%time f()``, ``!ls``, ``%%time``) are not Python: each
    becomes ``pass`` (same line numbers). Only a line where a statement may start is one: a line
    that continues a string, a bracket or a backslash (``!= x``, ``% n``) is Python and stays."""
    if not _MAGIC.search(source):
        return source
    lines = iter(source.splitlines(keepends=True))
    out: list[str] = []
    fresh = True  # the next line starts a statement: the tokens so far end one, and no line was read since

    def readline() -> str:
        nonlocal fresh
        line = next(lines, "")
        if fresh and _MAGIC.fullmatch(line.rstrip("\r\n")):
            line = _MAGIC.sub(r"\1pass", line)
        fresh = False
        out.append(line)
        return line

    depth = 0
    try:
        for token in tokenize.generate_tokens(readline):
            if token.type == tokenize.OP and token.string in "([{":
                depth += 1
            elif token.type == tokenize.OP and token.string in ")]}":
                depth = max(depth - 1, 0)
            elif token.type in (tokenize.NEWLINE, tokenize.NL) and depth == 0:
                fresh = True
    except (tokenize.TokenError, SyntaxError):  # not Python anyway: every %/! line goes, as IPython would not run it either
        return _MAGIC.sub(r"\1pass", source)
    return "".join(out)


class _TooMany(Exception):
    pass


class UnreadableNotebook(ValueError):
    """The submission cannot be read as a notebook; the message says why (no content)."""


class CodeTooLarge(UnreadableNotebook):
    """The submission holds more code than the grader reads: the student's, never the grader's."""


def read_bytes_safely(path: Path, limit: int | None = None) -> bytes:
    """The content of a regular file, opened without following a symlink in its last
    component, its size checked on the open file (not the path) and read with a cap."""
    limit = MAX_NOTEBOOK_BYTES if limit is None else limit
    flags = os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0)
    try:
        fd = os.open(path, flags)
    except OSError as exc:
        reason = "it is a symbolic link, not a file" if exc.errno == errno.ELOOP else exc.strerror
        raise UnreadableNotebook(f"cannot read the file ({reason})") from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise UnreadableNotebook("it is not a regular file")
        if info.st_size > limit:
            raise UnreadableNotebook(f"the notebook is {info.st_size // (1024 * 1024)} MB, over the {limit // (1024 * 1024)} MB limit"
                                     + _CLEAR_OUTPUTS * (limit == MAX_NOTEBOOK_BYTES))
        chunks, total = [], 0
        while True:
            chunk = os.read(fd, 1 << 20)
            if not chunk:
                break
            total += len(chunk)
            if total > limit:  # grew while being read
                raise UnreadableNotebook(f"the notebook is over the {limit // (1024 * 1024)} MB limit"
                                         + _CLEAR_OUTPUTS * (limit == MAX_NOTEBOOK_BYTES))
            chunks.append(chunk)
        return b"".join(chunks)
    finally:
        os.close(fd)


def read_notebook(path: Path) -> dict:
    """The notebook as plain JSON data (cells are dicts). Plain ``json``, not nbformat: the
    grader needs only cells, sources and metadata, and nbformat's import costs a second."""
    try:
        text = read_bytes_safely(path).decode("utf-8")
    except UnicodeDecodeError:
        raise UnreadableNotebook("the file is not UTF-8 text") from None
    # A notebook's size is capped, but what it parses into is not: 20 MB of empty cells make
    # millions of objects. Count strings before parsing and dicts while parsing.
    if text.count('"') > 2 * MAX_JSON_STRINGS:
        raise UnreadableNotebook(f"the notebook holds over {MAX_JSON_STRINGS:,} strings (clear its outputs and save it again)")
    made = [0]

    def count(pairs):
        made[0] += 1
        if made[0] > MAX_JSON_OBJECTS:
            raise _TooMany()
        return dict(pairs)

    try:
        raw = json.loads(text, object_pairs_hook=count)
    except _TooMany:
        raise UnreadableNotebook(f"the notebook holds over {MAX_JSON_OBJECTS:,} JSON objects (clear its outputs and save it again)") from None
    except (ValueError, RecursionError):
        raise UnreadableNotebook("the file is not valid notebook JSON") from None
    if not isinstance(raw, dict) or not isinstance(raw.get("cells"), list):
        raise UnreadableNotebook("the file is JSON but not a notebook (no list of cells)")
    if raw.get("nbformat") != 4:  # the value itself is the student's: never repeated
        raise UnreadableNotebook("the notebook format is not 4 (save it with Jupyter 4 or later)")
    raw["cells"] = [c for c in raw["cells"] if isinstance(c, dict)]
    for number, cell in enumerate(raw["cells"], 1):
        if not isinstance(cell.get("metadata"), dict):
            cell["metadata"] = {}
        if cell.get("cell_type") == "code" and len(source_of(cell)) > MAX_CELL_CODE:
            raise UnreadableNotebook(
                f"cell {number} holds {len(source_of(cell)) // 1024} KB of code, over the {MAX_CELL_CODE // 1024} KB "
                f"a cell may hold: {_KEEP_DATA_OUT}")
    code = code_bytes(raw)
    if code > MAX_NOTEBOOK_CODE:
        raise CodeTooLarge(f"your notebook's code is too large to grade: its code cells hold {code // 1024} KB, over "
                           f"the {MAX_NOTEBOOK_CODE // 1024} KB a notebook may hold; {_KEEP_DATA_OUT}")
    return raw


def code_bytes(nb: dict) -> int:
    """Characters of code in the notebook's code cells."""
    return sum(len(source_of(c)) for c in nb["cells"] if c.get("cell_type") == "code")


def check_syntax_size(cells: list[str]) -> None:
    """CodeTooLarge if the cells parse into more than MAX_AST_NODES syntax-tree nodes (a cell
    that does not parse counts for nothing: it defines nothing)."""
    nodes = 0
    for source in cells:
        try:
            tree = ast.parse(strip_magics(source))
        except (SyntaxError, ValueError, OverflowError, RecursionError):
            continue
        nodes += sum(1 for _ in ast.walk(tree))
        if nodes > MAX_AST_NODES:
            raise CodeTooLarge(f"your notebook's code is too large to grade: it parses into over {MAX_AST_NODES:,} "
                               f"syntax-tree nodes (the course's largest notebook, about 6,500); {_KEEP_DATA_OUT}")


def _nbgrader(cell) -> dict:
    meta = cell.get("metadata", {}).get("nbgrader", {})
    return meta if isinstance(meta, dict) else {}


def grade_id(cell) -> str:
    value = _nbgrader(cell).get("grade_id")
    return value if isinstance(value, str) else ""


def is_solution(cell) -> bool:
    return _nbgrader(cell).get("solution") is True


def is_setup(cell) -> bool:
    tags = cell.get("metadata", {}).get("tags", [])
    return cell.get("cell_type") == "code" and isinstance(tags, list) and SETUP_TAG in tags


def source_of(cell) -> str:
    source = cell.get("source", "")
    if isinstance(source, list):
        source = "".join(s for s in source if isinstance(s, str))
    return source if isinstance(source, str) else ""


def _matched(instructor: dict, student: dict) -> list[tuple[str, list[dict]]]:
    """For each solution code cell of the instructor's notebook, in order: its grade_id and the
    student's matching cell(s). Written answers take no part in the matching."""
    answers = {grade_id(c) for c in instructor["cells"] if is_solution(c) and c.get("cell_type") != "code"}
    cells = [c for c in student["cells"] if is_solution(c) and not (grade_id(c) and grade_id(c) in answers)]
    by_grade_id: dict = {}
    by_cell_id: dict = {}
    for cell in cells:  # a duplicated cell: all copies run, in order, as in a kernel
        by_grade_id.setdefault(grade_id(cell), []).append(cell)
        by_cell_id.setdefault(cell.get("id"), []).append(cell)
    out, position = [], 0
    for cell in instructor["cells"]:
        if not (is_solution(cell) and cell.get("cell_type") == "code"):
            continue
        matches = by_grade_id.get(grade_id(cell)) or by_cell_id.get(cell.get("id"))
        if not matches and position < len(cells):
            matches = [cells[position]]
        position += 1
        out.append((grade_id(cell), [m for m in matches or [] if m.get("cell_type") == "code"]))
    return out


def student_solutions(instructor: dict, student: dict) -> list[tuple[str, list[str]]]:
    """For each solution code cell of the instructor's notebook, in order: its grade_id and
    the code of the student's matching cell(s) (none if deleted or turned into markdown)."""
    return [(gid, [source_of(m) for m in matches]) for gid, matches in _matched(instructor, student)]


def _calls(node: ast.AST) -> bool:
    """Whether evaluating ``node`` runs code (a call, an await, a walrus...); a lambda's body does not run."""
    if isinstance(node, ast.Lambda):
        return any(_calls(d) for d in node.args.defaults + [d for d in node.args.kw_defaults if d is not None])
    if isinstance(node, (ast.Call, ast.Await, ast.Yield, ast.YieldFrom, ast.NamedExpr)):
        return True
    return any(_calls(child) for child in ast.iter_child_nodes(node))


def _defines(statement: ast.stmt) -> bool:
    if isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Import, ast.ImportFrom)):
        return True
    if isinstance(statement, (ast.Assign, ast.AnnAssign)):
        targets = statement.targets if isinstance(statement, ast.Assign) else [statement.target]
        return statement.value is not None and not any(_calls(n) for n in [statement.value, *targets])
    return False


NOT_RUN = "#(not run) "  # what a line of an added cell that is not run starts with (its text kept for hints)


def definitions_only(source: str) -> str:
    """``source`` with every top-level statement that is not a definition turned into a comment
    starting with NOT_RUN (same line numbers); "" when nothing in it defines anything (or it is
    not Python)."""

    try:
        tree = ast.parse(strip_magics(source))
    except (SyntaxError, ValueError, OverflowError, MemoryError, RecursionError):
        return ""
    lines = source.splitlines(keepends=True)
    keep, drop = set(), set()
    for statement in tree.body:
        first = min([statement.lineno] + [d.lineno for d in getattr(statement, "decorator_list", [])])
        (keep if _defines(statement) else drop).update(range(first, statement.end_lineno + 1))
    keep -= drop  # a line shared with a call (``import x; x.run()``) is not run
    if not keep:
        return ""
    return "".join(line if n in keep or not line.strip() else NOT_RUN + line for n, line in enumerate(lines, 1))


def _is_added(cell: dict, instructor_ids: set, instructor_sources: set) -> bool:
    """A code cell the student made: not nbgrader's, not the instructor's (by id or by content)."""
    return (cell.get("cell_type") == "code" and not _nbgrader(cell) and cell.get("id") not in instructor_ids
            and source_of(cell).strip() not in instructor_sources)


def _added_after(instructor: dict, student: dict, anchors: list[dict]) -> dict[int, list[str]]:
    """The definitions of the student's added cells, keyed by the ``id()`` of the matched
    solution cell each follows in the student's notebook (0: before all of them)."""
    ids = {c.get("id") for c in instructor["cells"] if c.get("id")}
    sources = {source_of(c).strip() for c in instructor["cells"]}
    anchor_ids = {id(c) for c in anchors}
    after: dict[int, list[str]] = {}
    current = 0
    for cell in student["cells"]:
        if id(cell) in anchor_ids:
            current = id(cell)
        elif _is_added(cell, ids, sources):
            code = definitions_only(source_of(cell))
            if code:
                after.setdefault(current, []).append(code)
    return after


def grading_code(instructor: dict, student: dict) -> list[str]:
    """The cells the worker runs, in order: the instructor's setup cells, the student's
    solution cells and, after each, the definitions of the cells the student added below it.
    A plain notebook without nbgrader metadata: setup, then all its code."""
    if not any(is_solution(c) for c in student["cells"]):
        setup = [source_of(c) for c in instructor["cells"] if is_setup(c)]
        return setup + [source_of(c) for c in student["cells"] if c.get("cell_type") == "code"]
    matched = _matched(instructor, student)
    after = _added_after(instructor, student, [m for _, ms in matched for m in ms])
    matches = iter(matched)
    cells: list[str] = []
    for cell in instructor["cells"]:
        if is_setup(cell):
            cells.append(source_of(cell))
        elif is_solution(cell) and cell.get("cell_type") == "code":
            for m in next(matches)[1]:
                if 0 in after:  # added above every solution cell: before the first one runs
                    cells.extend(after.pop(0))
                cells.append(source_of(m))
                cells.extend(after.pop(id(m), []))
    for leftover in after.values():  # no solution cell was matched: they run last
        cells.extend(leftover)
    return cells
