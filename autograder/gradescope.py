"""Gradescope: build the autograder zip, and grade inside Gradescope's container.

``make gradescope ASSIGNMENT=<assignment>`` writes ``dist/gradescope-autograder-<assignment>.zip``
holding the course (needle/, autograder/ with this assignment's hidden suites,
solutions/<assignment>/, pyproject.toml) and Gradescope's two entry points: ``setup.sh`` (a
Python 3.11 venv, a non-editable install of the zip with the ``grader`` extra) and
``run_autograder``, which grades the notebooks uploaded to ``/autograder/submission`` into
``/autograder/results/results.json`` with the same sandboxed grader
(``python -m autograder --course /autograder/source gradescope --assignment <assignment>``) and
prints the scores and the isolation that held (staff-only output on Gradescope).

Uploads are named as students' tools name them: ``08_train_digits (1).ipynb`` (a browser's
second download), ``08_train_digits-Copy1.ipynb`` (Jupyter's copy), ``Copy of 08_train_digits.ipynb``
(Google Drive), other letter case: each is matched to its notebook and the output says so; two
files for one notebook are both named (the exact name wins, else the first in path order) and a
notebook file matching none is named as not graded. The tests' visibility is Gradescope's
(``--visibility`` of ``gradescope-zip``: visible, hidden, after_due_date, after_published).
"""
from __future__ import annotations

import json
import shutil
import stat
import tempfile
import time
import zipfile
from pathlib import Path

from .course import Assignment, checkout
from .submissions import Job, match_notebooks

SETUP_SH = """#!/usr/bin/env bash
# Gradescope runs this once when it builds the autograder image (Ubuntu 22.04, as root), with
# the zip unpacked in /autograder/source. AUTOGRADER_ROOT stands for /autograder so that the
# project's tests run this very script under a temporary root.
set -euo pipefail
AUTOGRADER_ROOT="${AUTOGRADER_ROOT:-/autograder}"
# Debian's python3.11 makes venvs only with python3.11-venv (ensurepip); apt only when missing.
if ! python3.11 -c "import ensurepip, venv" 2>/dev/null; then
    apt-get update
    apt-get install -y python3.11 python3.11-venv
fi
python3.11 -m venv "$AUTOGRADER_ROOT/venv"
"$AUTOGRADER_ROOT/venv/bin/pip" install --upgrade pip
# Not editable: run_autograder runs this installed copy, as does the sandbox's zygote.
"$AUTOGRADER_ROOT/venv/bin/pip" install "$AUTOGRADER_ROOT/source[grader]"
"""

RUN_AUTOGRADER = """#!/usr/bin/env bash
# Gradescope runs this for every submission: the notebooks uploaded to submission/ are graded
# into results/results.json. -I: the grader is the installed package, never code from the
# current directory or $PYTHONPATH; the course (hidden suites, solutions) is source/.
set -euo pipefail
AUTOGRADER_ROOT="${{AUTOGRADER_ROOT:-/autograder}}"
exec "$AUTOGRADER_ROOT/venv/bin/python" -I -m autograder --course "$AUTOGRADER_ROOT/source" \\
    gradescope --assignment {assignment} --visibility {visibility} \\
    --submission "$AUTOGRADER_ROOT/submission" --results "$AUTOGRADER_ROOT/results"
"""


def _add(zf: zipfile.ZipFile, data: bytes, name: str, mode: int = 0o644) -> None:
    info = zipfile.ZipInfo(name, date_time=(2020, 1, 1, 0, 0, 0))  # fixed: the same zip every time
    info.external_attr = (stat.S_IFREG | mode) << 16
    info.compress_type = zipfile.ZIP_DEFLATED
    zf.writestr(info, data)


def _files(src: Path, dest: str) -> list[tuple[Path, str]]:
    """(file, name in the zip) for every file under ``src``, caches and dot-files left out."""
    out = []
    for f in sorted(p for p in src.rglob("*") if p.is_file()):
        rel = f.relative_to(src)
        if "__pycache__" not in rel.parts and not any(part.startswith(".") for part in rel.parts):
            out.append((f, f"{dest}/{rel.as_posix()}"))
    return out


def build(assignment: Assignment, out: Path, visibility: str = "visible") -> Path:
    root = checkout()  # where this grader and needle come from
    if not (root / "pyproject.toml").is_file():
        raise FileNotFoundError(f"the Gradescope zip is built from a checkout of needle-course; {root} has no pyproject.toml")
    entries = _files(root / "needle", "needle") + _files(root / "coursekit", "coursekit")  # the worker imports both
    entries += [(f, name) for f, name in _files(root / "autograder", "autograder") if not name.startswith("autograder/suites/")]
    entries += _files(assignment.suite_dir, f"autograder/suites/{assignment.name}")  # this assignment's suites only
    entries += _files(assignment.source_dir, f"solutions/{assignment.name}")
    entries += [(root / "pyproject.toml", "pyproject.toml"), (root / "README.md", "README.md")]
    out.parent.mkdir(parents=True, exist_ok=True)
    with zipfile.ZipFile(out, "w") as zf:
        _add(zf, SETUP_SH.encode(), "setup.sh", 0o755)
        _add(zf, RUN_AUTOGRADER.format(assignment=assignment.name, visibility=visibility).encode(), "run_autograder", 0o755)
        for f, name in entries:
            _add(zf, f.read_bytes(), name)
    return out


# Renamings of "<stem>.ipynb" by browsers, Jupyter, Google Drive and operating systems.
def _uploaded(submission: Path) -> list[Path]:
    """The notebooks of an upload, without Jupyter's checkpoints and macOS's resource forks."""
    return sorted(p for p in submission.rglob("*.ipynb")
                  if not p.name.startswith("._") and not any(part.startswith(".") or part == "__MACOSX"
                                                             for part in p.relative_to(submission).parts[:-1]))


def run(assignment: Assignment, submission: Path, results: Path, timeout: float = 10.0, visibility: str = "visible") -> int:
    """Grade one Gradescope submission (the uploaded notebooks, in any folder of the upload;
    symbolic links are not followed into folders and refused as notebooks) into
    results/results.json, readable by every user."""
    from .console import printable
    from .cpus import default_jobs
    from .export import report, summary
    from .results import isolation_summary
    from .grade.grading import grade_jobs
    from .store import write_atomic

    known = assignment.notebooks()
    present, notes = match_notebooks(_uploaded(submission), known, submission)
    jobs = [Job("submission", name, present.get(name)) for name in known]  # missing ones score 0
    out = Path(tempfile.mkdtemp(prefix="gradescope-"))
    try:
        started = time.monotonic()
        graded = grade_jobs(assignment, jobs, out, jobs=default_jobs(), timeout=timeout, progress=False)
        # stdout is for the instructor (Gradescope's stdout_visibility is "hidden"): the scores,
        # which isolation held in this container, and what to review
        print(summary.summary_table(graded.results))
        print(isolation_summary(graded.results))
        for r in graded.results:
            if r.review:
                print(f"REVIEW {r.notebook}: " + "; ".join(printable(str(x), 200) for x in r.review))
        data = report.gradescope_json(graded.results, visibility, student_view=True)
        data["execution_time"] = round(time.monotonic() - started)
        if not present:  # every notebook "not submitted": say why once
            data["output"] = "\n".join([f"No notebook of {assignment.name} was found in the upload; "
                                        f"expected files named like {known[0]}.ipynb."] + notes)
        elif notes:
            data["output"] = "\n".join(notes + [data["output"]])
        results.mkdir(parents=True, exist_ok=True)
        write_atomic(results / "results.json", json.dumps(data, indent=2, ensure_ascii=False))
    finally:
        shutil.rmtree(out, ignore_errors=True)
    return 0
