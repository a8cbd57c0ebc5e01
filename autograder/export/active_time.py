"""How long students worked on each notebook, from the timing JupyterLab records in it.

With JupyterLab's ``recordTiming`` setting on, every code cell run stores its times in the
cell's ``metadata.execution`` (``iopub.status.busy``, ``iopub.execute_input``,
``shell.execute_reply``, ``iopub.status.idle``: ISO 8601 timestamps), and the saved notebook
keeps them. A notebook's **active time** is the time between its recorded moments, sorted,
counting each gap of at most ``GAP_SECONDS`` and none longer: a pause of more than a few minutes
(a break, a night, another course) is not work on the notebook.

What this measures is a lower bound: a cell keeps the times of its last run only, so the runs
before it and the time spent reading or writing between the recorded moments that ended up more
than ``GAP_SECONDS`` apart are not counted. A notebook without any timing (recordTiming off, a
notebook written elsewhere) has no active time, rather than zero.

Students' notebooks are untrusted files: anything that is not a readable timestamp is skipped,
and a notebook too large or not JSON has no active time.
"""
from __future__ import annotations

import json
from datetime import datetime, timezone
from pathlib import Path

import numpy as np

from ..notebook import UnreadableNotebook, read_bytes_safely

GAP_SECONDS = 5 * 60  # a longer pause between two recorded moments is not counted
TIMING_KEYS = ("iopub.status.busy", "iopub.execute_input", "shell.execute_reply", "iopub.status.idle")
MAX_NOTEBOOK_BYTES = 50 * 2**20  # a submitted notebook larger than this is not read for timing


def recorded_moments(notebook: dict) -> list[float]:
    """Every timestamp of the notebook's code cells' ``metadata.execution``, as POSIX seconds, sorted."""
    moments = []
    cells = notebook.get("cells") if isinstance(notebook, dict) else None
    for cell in cells if isinstance(cells, list) else []:
        execution = cell.get("metadata", {}).get("execution") if isinstance(cell, dict) else None
        if not isinstance(execution, dict):
            continue
        for key in TIMING_KEYS:
            moment = _seconds(execution.get(key))
            if moment is not None:
                moments.append(moment)
    return sorted(moments)


def active_seconds(moments: list[float], gap: float = GAP_SECONDS) -> float | None:
    """The sum of the gaps between consecutive ``moments`` (sorted) of at most ``gap`` seconds;
    None when nothing was recorded."""
    if not moments:
        return None
    steps = np.diff(np.asarray(moments, dtype=np.float64))
    return float(steps[steps <= gap].sum())


def notebook_active_seconds(path: Path, gap: float = GAP_SECONDS) -> float | None:
    """The active time of the notebook file ``path``, None without timing (or when unreadable)."""
    try:  # the grader's careful read: a regular file, not a link (to /dev/zero, ...), with a cap
        notebook = json.loads(read_bytes_safely(path, MAX_NOTEBOOK_BYTES).decode("utf-8"))
    except (UnreadableNotebook, UnicodeDecodeError, ValueError, RecursionError):
        return None
    return active_seconds(recorded_moments(notebook), gap)


def submitted_active_times(submitted: Path, gap: float = GAP_SECONDS) -> dict:
    """{(assignment, notebook): {student: seconds}} for nbgrader's layout
    ``submitted/<student>/<assignment>/<notebook>.ipynb``, notebooks with timing only."""
    times: dict = {}
    for path in sorted(Path(submitted).glob("*/*/*.ipynb")):
        seconds = notebook_active_seconds(path, gap)
        if seconds is not None:
            student, assignment = path.parent.parent.name, path.parent.name
            times.setdefault((assignment, path.stem), {})[student] = seconds
    return times


def quartiles(values) -> tuple[float, float, float]:
    """(first quartile, median, third quartile), linear interpolation between the sorted values."""
    q1, median, q3 = np.percentile(np.asarray(list(values), dtype=np.float64), [25, 50, 75])
    return float(q1), float(median), float(q3)


def minutes(seconds: float) -> str:
    """'42 min' or '1 h 05 min'."""
    total = int(round(seconds / 60))
    return f"{total} min" if total < 60 else f"{total // 60} h {total % 60:02d} min"


def _seconds(stamp) -> float | None:
    """An ISO 8601 timestamp ('2026-12-07T09:15:02.123Z') as POSIX seconds; None if it is not one."""
    if not isinstance(stamp, str) or len(stamp) > 64:
        return None
    try:
        moment = datetime.fromisoformat(stamp.replace("Z", "+00:00"))
    except ValueError:
        return None
    if moment.tzinfo is None:  # JupyterLab writes UTC; a stamp without a zone is read as UTC too
        moment = moment.replace(tzinfo=timezone.utc)
    return moment.timestamp()
