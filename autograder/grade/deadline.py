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
import re
from dataclasses import dataclass, field
from pathlib import Path

from ..store import write_atomic
from ..submissions import UsageProblem
from ..timestamps import show, started_days, utc

POLICY = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*(%?)\s*(?:/\s*day)?\s*$")


@dataclass(frozen=True)
class LatePolicy:
    amount: float
    percent: bool  # amount is a percentage of the notebook's points, else points

    def penalty(self, late_seconds: float, score: float, max_score: float) -> float:
        """Points taken from a notebook that earned ``score`` of ``max_score`` points."""
        if late_seconds <= 0:
            return 0.0
        days = started_days(late_seconds)
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


EXTRA_TIME = re.compile(r"^\s*(?:(\d+(?:\.\d+)?)\s*(?:d|days?))?\s*(?:(\d+(?:\.\d+)?)\s*(?:h|hours?))?"
                        r"\s*(?:(\d+(?:\.\d+)?)\s*(?:min|minutes?))?\s*$")


def parse_extra_time(text: str) -> dt.timedelta:
    """"2 days", "36 h", "1 day 12 h", "90 min" as a duration."""
    m = EXTRA_TIME.match(text)
    if not m or not any(m.groups()):
        raise ValueError(text)
    days, hours, minutes = (float(x) if x else 0.0 for x in m.groups())
    return dt.timedelta(days=days, hours=hours, minutes=minutes)


def parse_extensions(path: Path, due: dt.datetime | None) -> dict[str, dt.datetime]:
    """``--extensions FILE``: a CSV with a header, ``student,due`` (each student's own due date,
    ISO 8601) or ``student,extra`` (time added to the due date: "2 days", "36 h", "1 day 12 h").
    Returns {student id: due date (UTC)}."""
    import csv
    import io

    try:
        rows = list(csv.DictReader(io.StringIO(path.read_text(encoding="utf-8-sig"))))
        header = set(rows[0]) if rows else set()
    except (OSError, UnicodeDecodeError, csv.Error) as exc:
        raise UsageProblem(f"--extensions {path}: cannot be read ({exc}); expected a CSV file with the columns "
                           "student,due or student,extra") from None
    if not rows or "student" not in header or not header & {"due", "extra"}:
        raise UsageProblem(f"--extensions {path}: expected a CSV with a header row and the columns student,due "
                           "(e.g. alice,2025-03-04T23:59) or student,extra (e.g. alice,2 days)")
    if "extra" in header and due is None:
        raise UsageProblem(f"--extensions {path} adds time to the due date: give --due (or the gradebook's due date)")
    extended = {}
    for line, row in enumerate(rows, start=2):
        student, own, extra = (row.get("student") or "").strip(), (row.get("due") or "").strip(), (row.get("extra") or "").strip()
        if not student:
            raise UsageProblem(f"--extensions {path}, line {line}: no student id")
        try:
            extended[student] = utc(dt.datetime.fromisoformat(own.replace("Z", "+00:00"))) if own else due + parse_extra_time(extra)
        except (ValueError, TypeError):
            raise UsageProblem(f"--extensions {path}, line {line}: {own or extra!r} for {student!r} is neither a due date "
                               "(ISO 8601, e.g. 2025-03-04T23:59) nor extra time (e.g. 2 days, 36 h, 1 day 12 h, 90 min)") from None
    return extended


@dataclass(frozen=True)
class Deadline:
    due: dt.datetime  # aware, UTC
    policy: LatePolicy | None = None  # None: lateness is shown, no points are taken
    extensions: dict = field(default_factory=dict, compare=False)  # student id -> their own due date (UTC)

    def due_for(self, student: str = "") -> dt.datetime:
        return self.extensions.get(student, self.due)

    def late_seconds(self, submitted: dt.datetime | None, student: str = "") -> float:
        return 0.0 if submitted is None else max(0.0, (utc(submitted) - self.due_for(student)).total_seconds())

    def describe(self) -> str:
        extended = f" ({len(self.extensions)} student(s) with an extension)" if self.extensions else ""
        return (f"due {show(self.due)}{extended}; "
                + (f"late: {self.policy.describe()}" if self.policy else "late submissions are marked, not penalised"))


# --- the policy kept with the grades ------------------------------------------------------------
POLICY_FILE = "late_policy.json"  # in grade's --out folder: {assignment: {due, late_penalty, extensions}}
CLEAR = "none"  # --due none, --late-penalty none, --extensions none: drop what is kept


def stored_policy(out: Path, assignment: str) -> dict:
    """The due date, late penalty and extensions (as given) that earlier runs into ``out`` kept."""
    import json

    try:
        kept = json.loads((out / POLICY_FILE).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return kept.get(assignment, {}) if isinstance(kept, dict) and isinstance(kept.get(assignment, {}), dict) else {}


def store_policy(out: Path, assignment: str, deadline: "Deadline | None", late_penalty: str | None) -> None:
    """Keep ``deadline`` for later runs into ``out`` (``late_penalty``: the policy as given)."""
    import json

    if deadline is None and not (out / POLICY_FILE).exists():
        return  # nothing to keep, nothing kept to drop
    try:
        kept = json.loads((out / POLICY_FILE).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        kept = {}
    kept[assignment] = {} if deadline is None else {
        "due": deadline.due.isoformat(), "late_penalty": late_penalty,
        "extensions": {s: due.isoformat() for s, due in sorted(deadline.extensions.items())},
    }
    write_atomic(out / POLICY_FILE, json.dumps(kept, indent=1, sort_keys=True) + "\n")


def resolve(out: Path, assignment: str, due: str | None, late_penalty: str | None, extensions: Path | None,
            gradebook_due: dt.datetime | None) -> tuple["Deadline | None", str | None]:
    """The deadline of a run: each of --due, --late-penalty and --extensions as given, else as kept
    in ``out`` by earlier runs, the due date else the gradebook's; ``none`` drops what is kept.
    Returns (deadline, the late penalty as given, to keep)."""
    kept = stored_policy(out, assignment)
    if due is not None and due.strip().lower() == CLEAR:  # no deadline: nothing kept of the old one applies
        kept = {}
    if due is not None:
        due_at = None if due.strip().lower() == CLEAR else parse_due(due)
    else:
        due_at = parse_due(kept["due"]) if kept.get("due") else gradebook_due
    penalty = late_penalty if late_penalty is not None else kept.get("late_penalty")
    if penalty is not None and penalty.strip().lower() == CLEAR:
        penalty = None
    policy = parse_policy(penalty) if penalty else None
    if extensions is not None and str(extensions).strip().lower() != CLEAR:
        extended = parse_extensions(Path(extensions), due_at)
    elif extensions is None:
        extended = {s: parse_due(d) for s, d in (kept.get("extensions") or {}).items()}
    else:
        extended = {}
    if due_at is None:
        if policy is not None or extended:
            flag = "--late-penalty" if policy is not None else "--extensions"
            raise UsageProblem(f"{flag} needs a due date: give --due (or set the assignment's due date in gradebook.db "
                               "and grade with --gradebook)")
        return None, None
    return Deadline(due_at, policy, extended), penalty
