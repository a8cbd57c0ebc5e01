"""Due dates and the late policy: when a notebook was submitted, how late, what that costs.

The submission time is nbgrader's ``timestamp.txt`` of the submission folder (written by
``nbgrader submit``, kept by ``collect``), or, for a folder without one, the notebook file's
modification time. Both come from the student's side (nbgrader trusts the first as well): the
grader reads them as untrusted files and never repeats their content.

The policy (``grade --late-penalty``) takes, per notebook, an amount for every day or part of a
day after the due date: ``10%`` of the notebook's points, or ``2`` points. ``100%`` is nbgrader's
"zero" policy. The penalty never exceeds what the notebook's tests earned.
"""
from __future__ import annotations

import datetime as dt
import math
import re
from dataclasses import dataclass
from pathlib import Path

from .submissions import UsageProblem

DAY = 86400.0
POLICY = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*(%?)\s*(?:/\s*day)?\s*$")
MAX_TIMESTAMP_BYTES = 200


@dataclass(frozen=True)
class LatePolicy:
    amount: float
    percent: bool  # amount is a percentage of the notebook's points, else points

    def penalty(self, late_seconds: float, score: float, max_score: float) -> float:
        """Points taken from a notebook that earned ``score`` of ``max_score`` points."""
        if late_seconds <= 0:
            return 0.0
        days = math.ceil(late_seconds / DAY)  # a started day counts
        per_day = self.amount * max_score / 100 if self.percent else self.amount
        return min(score, days * per_day)

    def describe(self) -> str:
        amount = f"{self.amount:g}% of the notebook's points" if self.percent else f"{self.amount:g} point(s)"
        return f"{amount} per day late (a started day counts)"


def parse_policy(text: str) -> LatePolicy:
    m = POLICY.match(text)
    if not m:
        raise UsageProblem(f"--late-penalty {text!r} is not a late policy; expected e.g. 10% (of a notebook's points "
                           "per day late), 2 (points per day late) or 100% (late scores zero)")
    amount, percent = float(m.group(1)), m.group(2) == "%"
    if percent and amount > 100:
        raise UsageProblem(f"--late-penalty {text!r}: a percentage per day is at most 100%")
    return LatePolicy(amount, percent)


def parse_due(text: str) -> dt.datetime:
    """An ISO 8601 date and time; without an offset it is UTC. Returned in UTC."""
    try:
        due = dt.datetime.fromisoformat(text.strip().replace("Z", "+00:00"))
    except ValueError:
        raise UsageProblem(f"--due {text!r} is not a date and time; expected ISO 8601, e.g. 2025-03-01T23:59 "
                           "(UTC) or 2025-03-01T23:59+01:00") from None
    return utc(due)


def utc(moment: dt.datetime) -> dt.datetime:
    """``moment`` as an aware UTC time (a naive one is taken to be UTC, as nbgrader stores them)."""
    return moment.replace(tzinfo=dt.timezone.utc) if moment.tzinfo is None else moment.astimezone(dt.timezone.utc)


def parse_timestamp(text: str) -> dt.datetime | None:
    """nbgrader's submission timestamp (``%Y-%m-%d %H:%M:%S.%f %Z``) in UTC, or None when it cannot
    be read. Another time zone than UTC goes through nbgrader's own parser (slow to import)."""
    text = text.strip()
    if text.endswith(" UTC"):
        try:
            return utc(dt.datetime.fromisoformat(text[:-4]))
        except (ValueError, OverflowError):  # OverflowError: year 1 at +14:00 has no UTC time
            pass
    try:
        from nbgrader.utils import parse_utc

        return utc(parse_utc(text))
    except Exception:  # noqa: BLE001 - any unreadable timestamp is "unknown"
        return None


def nbgrader_timestamp(moment: dt.datetime) -> str:
    """The form nbgrader writes in timestamp.txt."""
    return utc(moment).strftime("%Y-%m-%d %H:%M:%S.%f UTC")


def submission_time(notebook: Path) -> dt.datetime | None:
    """When ``notebook`` was submitted: its folder's timestamp.txt (nbgrader), else the file's own
    modification time (not following a link). None when neither can be read."""
    from ..notebook import UnreadableNotebook, read_bytes_safely

    stamp = notebook.parent / "timestamp.txt"
    try:
        moment = parse_timestamp(read_bytes_safely(stamp, MAX_TIMESTAMP_BYTES).decode("utf-8", errors="replace"))
    except UnreadableNotebook:  # no timestamp.txt (or not a plain small file): the file's time
        moment = None
    if moment is None:
        try:
            moment = dt.datetime.fromtimestamp(notebook.lstat().st_mtime, dt.timezone.utc)
        except (OSError, OverflowError, ValueError):  # a modification time past year 9999 (tmpfs allows it)
            return None
    return moment


def show(moment: dt.datetime) -> str:
    return utc(moment).strftime("%Y-%m-%d %H:%M UTC")


def duration(seconds: float) -> str:
    """``1 day 3 h``, ``5 h 20 min``, ``12 min`` (rounded up to the minute)."""
    minutes = math.ceil(seconds / 60)
    days, minutes = divmod(minutes, 24 * 60)
    hours, minutes = divmod(minutes, 60)
    if days:
        return f"{days} day{'s' if days > 1 else ''}" + (f" {hours} h" if hours else "")
    if hours:
        return f"{hours} h" + (f" {minutes} min" if minutes else "")
    return f"{minutes} min"


@dataclass(frozen=True)
class Deadline:
    due: dt.datetime  # aware, UTC
    policy: LatePolicy | None = None  # None: lateness is shown, no points are taken

    def late_seconds(self, submitted: dt.datetime | None) -> float:
        return 0.0 if submitted is None else max(0.0, (utc(submitted) - self.due).total_seconds())

    def describe(self) -> str:
        return f"due {show(self.due)}; " + (f"late: {self.policy.describe()}" if self.policy else "late submissions are marked, not penalised")
