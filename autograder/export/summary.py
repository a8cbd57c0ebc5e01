"""What ``grade`` (and ``make demo``) print when grading is done: the class's table, what the
sandbox enforced, lateness a line per student, flags, and where the reports are. Every
student-supplied string is printed through ``printable``; a student reported under an escaped id
is shown by their folder's name, the id beside it.
"""
from __future__ import annotations

from collections import defaultdict
from pathlib import Path

from ..console import printable
from ..results import NotebookResult, isolation_summary
from ..store import assignments_in, escaped_names
from .report import charged, num


def describe(results: list[NotebookResult], out: Path, *, unsaved: list[str] = (), ungraded: list[NotebookResult] = (),
             gradebook: str = "", deadline: str = "") -> str:
    """The summary of a run whose ``results`` are in ``out``; ``deadline``: the policy in words."""
    names = escaped_names(out)
    lines = [summary_table(results, names), isolation_summary(results)]
    for r in results:
        if r.review:  # the grader's own words (the student's feedback says only that it is flagged)
            lines.append(f"REVIEW {shown(r.student, names)}/{r.notebook}: " + "; ".join(printable(str(x), 200) for x in r.review))
    if gradebook:
        lines.append(gradebook)
    if unsaved:
        lines.append(f"NOT SAVED (grade them again): {', '.join(unsaved)}")
    if ungraded:
        lines.append("NOT GRADED (an error of the grader's own, not the student's; their zeros are not in the "
                     f"gradebook; see feedback, then grade them again): "
                     f"{', '.join(f'{shown(r.student, names)}/{r.notebook}' for r in ungraded)}")
    where = "<student>" if len(assignments_in(out)) < 2 else "<student>/<assignment>"
    lines.append(f"reports: {out / 'grades.csv'}, {out}/{where}/results.json and feedback.html")
    if deadline:
        lines += [f"{deadline}."] + late_lines(results, names)
    return "\n".join(lines)


def shown(student: str, names: dict[str, str]) -> str:
    """A student as people read them, safe for a terminal: their folder's name (josé), with the
    reports' escaped id beside it when it differs."""
    real = names.get(student)
    return f"{printable(real)} ({student})" if real and real != student else printable(student)


def late_lines(results: list[NotebookResult], names: dict[str, str] | None = None) -> list[str]:
    """The grader's summary of lateness: one line per late student (a class's on one line was
    11,000 characters)."""
    late: dict[str, list[NotebookResult]] = defaultdict(list)
    for r in results:
        if r.late_seconds > 0:
            late[r.student].append(r)
    if not late:
        return ["late: none"]
    return [f"late {shown(student, names or {})}: " + "; ".join(f"{r.notebook} {charged(r)}" for r in rs) for student, rs in sorted(late.items())]


def _mark(r: NotebookResult) -> str:
    if r.review:
        return "R"
    if r.error and not r.not_submitted:
        return "!"
    return "L" if r.late_seconds > 0 else ""


def summary_table(results: list[NotebookResult], names: dict[str, str] | None = None) -> str:
    notebooks = sorted({r.notebook for r in results})
    students = sorted({r.student for r in results})
    by_cell = {(r.student, r.notebook): r for r in results}
    short = [n.split("_", 1)[0] for n in notebooks]
    label = {s: shown(s, names or {}) for s in students}
    width = max([len("student")] + [len(text) for text in label.values()])
    lines = [f"{'student':<{width}}  " + "  ".join(f"{s:>8}" for s in short) + "    total"]
    for s in students:
        row, total, maximum = [], 0.0, 0.0
        for n in notebooks:
            r = by_cell.get((s, n))
            if r is None:
                row.append("-")
                continue
            row.append("missing" if r.not_submitted else f"{num(r.score)}/{num(r.max_score)}{_mark(r)}")
            total, maximum = total + r.score, maximum + r.max_score
        lines.append(f"{label[s]:<{width}}  " + "  ".join(f"{c:>8}" for c in row) + f"  {num(total):>4}/{num(maximum)}")
    legend = "  ".join(f"{a}={b}" for a, b in zip(short, notebooks))
    return "\n".join(lines) + (f"\n({legend}; missing = not submitted (0 points); ! = could not be fully graded, "
                               "see feedback; L = late; R = flagged for review)")
