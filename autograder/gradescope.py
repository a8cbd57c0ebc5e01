"""Gradescope: build the autograder zip, and grade inside Gradescope's container.

``make gradescope`` writes ``dist/gradescope-autograder.zip`` holding this repository's
needle/, autograder/, solutions/, pyproject.toml and Gradescope's two entry points:
``setup.sh`` (Python 3.11 venv, ``pip install -e``) and ``run_autograder``, which grades
the uploaded notebooks in ``/autograder/submission`` into ``/autograder/results/results.json``
with the same sandboxed grader (``python -m autograder gradescope``).
"""
from __future__ import annotations

import json
import shutil
import stat
import tempfile
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

SETUP_SH = """#!/usr/bin/env bash
# Gradescope runs this once when building the autograder image (Ubuntu, as root).
set -euo pipefail
apt-get update
apt-get install -y python3.11 python3.11-venv
python3.11 -m venv /autograder/venv
/autograder/venv/bin/pip install --upgrade pip
/autograder/venv/bin/pip install -e /autograder/source
"""

RUN_AUTOGRADER = """#!/usr/bin/env bash
# Gradescope runs this for every submission; results go to /autograder/results/results.json.
set -euo pipefail
AUTOGRADER_ROOT="${AUTOGRADER_ROOT:-/autograder}"
PYTHON="${AUTOGRADER_PYTHON:-$AUTOGRADER_ROOT/venv/bin/python}"
cd "$AUTOGRADER_ROOT/source"
exec "$PYTHON" -m autograder gradescope --submission "$AUTOGRADER_ROOT/submission" --results "$AUTOGRADER_ROOT/results"
"""

INCLUDE = ["needle", "autograder", "solutions", "pyproject.toml", "README.md", "nbgrader_config.py"]


def _add(zf: zipfile.ZipFile, path: Path, name: str, mode: int = 0o644) -> None:
    info = zipfile.ZipInfo(name, date_time=(2020, 1, 1, 0, 0, 0))  # fixed: the same zip every time
    info.external_attr = (stat.S_IFREG | mode) << 16
    info.compress_type = zipfile.ZIP_DEFLATED
    zf.writestr(info, path.read_bytes() if isinstance(path, Path) else path)


def build(out: Path) -> Path:
    out.parent.mkdir(parents=True, exist_ok=True)
    with zipfile.ZipFile(out, "w") as zf:
        _add(zf, SETUP_SH.encode(), "setup.sh", 0o755)
        _add(zf, RUN_AUTOGRADER.encode(), "run_autograder", 0o755)
        for item in INCLUDE:
            src = ROOT / item
            files = [src] if src.is_file() else sorted(p for p in src.rglob("*") if p.is_file())
            for f in files:
                rel = f.relative_to(ROOT)
                if "__pycache__" in rel.parts or any(part.startswith(".") for part in rel.parts):
                    continue
                _add(zf, f, str(rel))
    return out


def run(submission: Path, results: Path, assignment: str = "lecture8", timeout: float = 10.0) -> int:
    """Grade one Gradescope submission (the uploaded notebooks) into results/results.json."""
    from . import batch, report

    source = ROOT / "solutions" / assignment
    known = sorted(p.stem for p in source.glob("*.ipynb"))
    present = {p.stem: p for p in submission.rglob("*.ipynb") if p.stem in known}
    jobs = [batch.Job("submission", name, present.get(name)) for name in known]  # missing ones score 0
    out = Path(tempfile.mkdtemp(prefix="gradescope-"))
    try:
        batch.run_jobs(jobs, source, assignment, timeout, batch.default_jobs(), lambda r: report.save_result(out, r))
        report.write_reports(out)
        results.mkdir(parents=True, exist_ok=True)
        data = json.loads((out / "submission" / "results.json").read_text())
        if not present:
            data["output"] = f"No notebook of {assignment} was found in the upload; expected files named like {known[0]}.ipynb."
        report.write_atomic(results / "results.json", json.dumps(data, indent=2, ensure_ascii=False))
    finally:
        shutil.rmtree(out, ignore_errors=True)
    return 0
