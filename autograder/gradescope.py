"""Gradescope: build the autograder zip, and grade inside Gradescope's container.

``make gradescope`` writes ``dist/gradescope-autograder-<assignment>.zip`` holding the course
(needle/, autograder/ with the hidden suites, solutions/<assignment>/, pyproject.toml) and
Gradescope's two entry points: ``setup.sh`` (a Python 3.11 venv with the grader's
dependencies) and ``run_autograder``, which grades the uploaded notebooks in
``/autograder/submission`` into ``/autograder/results/results.json`` with the same sandboxed
grader (``python -m autograder gradescope --assignment <assignment>``).
"""
from __future__ import annotations

import json
import shutil
import stat
import tempfile
import zipfile
from pathlib import Path

from .course import Assignment
from .submissions import Job

SETUP_SH = """#!/usr/bin/env bash
# Gradescope runs this once when building the autograder image (Ubuntu, as root).
set -euo pipefail
apt-get update
apt-get install -y python3.11 python3.11-venv
python3.11 -m venv /autograder/venv
/autograder/venv/bin/pip install --upgrade pip
/autograder/venv/bin/pip install "/autograder/source[grader]"
"""

RUN_AUTOGRADER = """#!/usr/bin/env bash
# Gradescope runs this for every submission; results go to /autograder/results/results.json.
set -euo pipefail
AUTOGRADER_ROOT="${{AUTOGRADER_ROOT:-/autograder}}"
cd "$AUTOGRADER_ROOT/source"
exec "$AUTOGRADER_ROOT/venv/bin/python" -m autograder gradescope --assignment {assignment} \\
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


def build(assignment: Assignment, out: Path) -> Path:
    checkout = Path(__file__).resolve().parents[1]  # where this grader and needle come from
    if not (checkout / "pyproject.toml").is_file():
        raise FileNotFoundError(f"the Gradescope zip is built from a checkout of needle-course; {checkout} has no pyproject.toml")
    entries = _files(checkout / "needle", "needle")
    entries += [(f, name) for f, name in _files(checkout / "autograder", "autograder") if not name.startswith("autograder/suites/")]
    entries += _files(assignment.suite_dir, f"autograder/suites/{assignment.name}")  # this assignment's suites only
    entries += _files(assignment.source_dir, f"solutions/{assignment.name}")
    entries += [(checkout / "pyproject.toml", "pyproject.toml"), (checkout / "README.md", "README.md")]
    out.parent.mkdir(parents=True, exist_ok=True)
    with zipfile.ZipFile(out, "w") as zf:
        _add(zf, SETUP_SH.encode(), "setup.sh", 0o755)
        _add(zf, RUN_AUTOGRADER.format(assignment=assignment.name).encode(), "run_autograder", 0o755)
        for f, name in entries:
            _add(zf, f.read_bytes(), name)
    return out


def run(assignment: Assignment, submission: Path, results: Path, timeout: float = 10.0) -> int:
    """Grade one Gradescope submission (the uploaded notebooks) into results/results.json."""
    from . import batch, report
    from .grading import grade_jobs

    known = assignment.notebooks()
    present = {p.stem: p for p in sorted(submission.rglob("*.ipynb")) if p.stem in known}
    jobs = [Job("submission", name, present.get(name)) for name in known]  # missing ones score 0
    out = Path(tempfile.mkdtemp(prefix="gradescope-"))
    try:
        grade_jobs(assignment, jobs, out, jobs=batch.default_jobs(), timeout=timeout, progress=False)
        data = json.loads((out / "submission" / "results.json").read_text())
        if not present:
            data["output"] = f"No notebook of {assignment.name} was found in the upload; expected files named like {known[0]}.ipynb."
        results.mkdir(parents=True, exist_ok=True)
        report.write_atomic(results / "results.json", json.dumps(data, indent=2, ensure_ascii=False))
    finally:
        shutil.rmtree(out, ignore_errors=True)
    return 0
