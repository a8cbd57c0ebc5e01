"""Reading notebooks and choosing the code the grader runs.

The grader runs, in the instructor's cell order: the instructor's own cells tagged ``setup``
(imports, helpers; taken from ``solutions/``, never from the submission) and the student's
version of every nbgrader solution cell. A student cell is matched by nbgrader ``grade_id``,
then by cell id, then by position among the solution cells, so added, deleted or reordered
cells do not break the match; duplicated copies all run, in order, as they would in a kernel. Test cells, demos and plots are not run.
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

MAX_NOTEBOOK_BYTES = 20 * 1024 * 1024
SETUP_TAG = "setup"


class UnreadableNotebook(ValueError):
    """The submission cannot be read as a notebook; the message says why (no content)."""


def read_notebook(path: Path) -> dict:
    """The notebook as plain JSON data (cells are dicts). Plain ``json``, not nbformat: the
    grader needs only cells, sources and metadata, and nbformat's import costs a second."""
    try:
        size = path.stat().st_size
    except OSError as exc:
        raise UnreadableNotebook(f"cannot read the file ({exc.strerror})") from None
    if size > MAX_NOTEBOOK_BYTES:
        raise UnreadableNotebook(f"the notebook is {size // (1024 * 1024)} MB, over the {MAX_NOTEBOOK_BYTES // (1024 * 1024)} MB limit")
    try:
        text = path.read_bytes().decode("utf-8")
    except UnicodeDecodeError:
        raise UnreadableNotebook("the file is not UTF-8 text") from None
    try:
        raw = json.loads(text)
    except (ValueError, RecursionError):
        raise UnreadableNotebook("the file is not valid notebook JSON") from None
    if not isinstance(raw, dict) or not isinstance(raw.get("cells"), list):
        raise UnreadableNotebook("the file is JSON but not a notebook (no list of cells)")
    if raw.get("nbformat") != 4:
        raise UnreadableNotebook(f"the notebook format is {raw.get('nbformat')!r}; expected 4 (save it with Jupyter 4 or later)")
    raw["cells"] = [c for c in raw["cells"] if isinstance(c, dict)]
    for cell in raw["cells"]:
        if not isinstance(cell.get("metadata"), dict):
            cell["metadata"] = {}
    return raw


def _nbgrader(cell) -> dict:
    meta = cell.get("metadata", {}).get("nbgrader", {})
    return meta if isinstance(meta, dict) else {}


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


@dataclass
class GradingCode:
    cells: list[str]
    missing: list[str]  # grade_ids of solution cells not found in the submission


def grading_code(instructor: dict, student: dict) -> GradingCode:
    student_solutions = [c for c in student["cells"] if is_solution(c)]
    if not student_solutions:
        # A plain notebook without nbgrader metadata: the setup, then all of the student's code.
        setup = [source_of(c) for c in instructor["cells"] if is_setup(c)]
        return GradingCode(setup + [source_of(c) for c in student["cells"] if c.get("cell_type") == "code"], [])
    by_grade_id: dict = {}
    by_cell_id: dict = {}
    for cell in student_solutions:  # a duplicated cell: all copies run, in order, as in a kernel
        by_grade_id.setdefault(_nbgrader(cell).get("grade_id"), []).append(cell)
        by_cell_id.setdefault(cell.get("id"), []).append(cell)
    cells, missing, position = [], [], 0
    for cell in instructor["cells"]:
        if is_setup(cell):
            cells.append(source_of(cell))
        elif is_solution(cell) and cell.get("cell_type") == "code":
            grade_id = _nbgrader(cell).get("grade_id")
            matches = by_grade_id.get(grade_id) or by_cell_id.get(cell.get("id"))
            if not matches and position < len(student_solutions):
                matches = [student_solutions[position]]
            position += 1
            code = [source_of(m) for m in matches or [] if m.get("cell_type") == "code"]
            if not code:  # deleted, or turned into markdown: nothing of it runs
                missing.append(str(grade_id))
            cells.extend(code)
    return GradingCode(cells, missing)
