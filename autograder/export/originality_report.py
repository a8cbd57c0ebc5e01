"""originality.html: the flagged comparisons, most unusual first, each opening onto the two codes
side by side with the matching spans highlighted. One self-contained file (inline CSS, no
script, no external asset); every text from a submission, names included, is HTML-escaped.
"""
from __future__ import annotations

from collections import Counter
from html import escape
from pathlib import Path

from ..console import fail
from ..course import Assignment
from ..store import write_atomic
from ..submissions import UsageProblem
from . import originality as orig

CONTEXT_LINES = 3  # lines shown around the matched part of a needle file
SHOWN = 500  # flagged comparisons shown side by side (a page a browser still opens quickly)

_STYLE = """
body{font-family:system-ui,-apple-system,Segoe UI,sans-serif;margin:2rem auto;max-width:96rem;padding:0 1rem;color:#222;line-height:1.45}
h1{font-size:1.6rem}h2{font-size:1.2rem;margin-top:2rem}table{border-collapse:collapse}
td,th{padding:.2rem .6rem;border-bottom:1px solid #ddd;text-align:left}td.n{text-align:right}
.note{background:#fff4e5;border:1px solid #f0c36d;padding:.6rem;border-radius:4px}
details{border:1px solid #ddd;border-radius:4px;margin:.3rem 0}details[open]{border-color:#999}
summary{cursor:pointer;padding:.35rem .6rem;display:grid;grid-template-columns:3.5rem 4rem 5.5rem 1fr 6.5rem 1fr 7rem;gap:.5rem;white-space:nowrap}
summary span{overflow:hidden;text-overflow:ellipsis}
summary b{font-variant-numeric:tabular-nums}.pair{display:grid;grid-template-columns:1fr 1fr;gap:.8rem;padding:.6rem}
.side{min-width:0}.side h3{font-size:.95rem;margin:.2rem 0}
pre{background:#f7f7f7;padding:.5rem;overflow-x:auto;font-size:.82rem;margin:0;line-height:1.35}
.ln{color:#999;user-select:none;display:inline-block;width:3.2em;text-align:right;margin-right:.8em}
mark{background:#ffd54f}.stub{color:#aaa}.gap{color:#999;font-style:italic}
"""


def originality_html(report: "orig.Report") -> str:
    flagged = [m for m in report.matches if m.flagged]
    parts = [
        "<!doctype html><html lang='en'><head><meta charset='utf-8'>",
        f"<title>Originality report</title><style>{_STYLE}</style></head><body>",
        "<h1>Originality report</h1>",
        f"<p>{len(report.answers)} answers of {report.students} students to {len(report.tasks)} tasks, each compared with "
        "every other student's answer to the same task, with the instructor's solution and with needle's source "
        f"(copydetect's winnowing: names, comments and layout do not matter; matches shorter than {orig.NOISE} "
        "normalised tokens do not count; the released stub, shown in grey, is ignored). "
        "Similarity is the share of the code in matched spans (the larger share of the two codes; against needle, "
        "the answer's). What most of the class shares with a text is the task's shape, not copying: each comparison "
        "is set against the task's <b>typical</b> similarity of its kind (the class's median), and ranked by its "
        f"<b>excess</b> over it. Flagged: a similarity of at least {orig.FLAG_SIMILARITY:.0%} and at least "
        f"{orig.FLAG_EXCESS:.0%} above the typical one (tasks with fewer than {orig.CALIBRATE_FROM} answers are not "
        "calibrated). Between students, passages that "
        f"more than max({orig.COMMON_MIN}, {orig.COMMON_SHARE:.0%} of the answers) share, and the solution's own passages, "
        "are ignored. A flag is a reason to read the code, not a verdict. "
        f"originality.csv lists every comparison from {orig.LIST_SIMILARITY:.0%} on; originality_pairs.csv every pair "
        "of students listed together.</p>",
        "<p class='note'>This report shows the solutions: keep it to the course staff.</p>",
    ]
    parts += _leak_list(report.leaks)
    parts += _task_table(report, flagged)
    parts += _pair_table(orig.student_pair_view(report))
    parts.append(f"<h2>Flagged comparisons ({len(flagged)}), most unusual first</h2>")
    if not flagged:
        parts.append("<p>No comparison reached the threshold.</p>")
    if len(flagged) > SHOWN:
        parts.append(f"<p>The {SHOWN} most unusual are shown; originality.csv lists all {len(flagged)}.</p>")
    for rank, match in enumerate(flagged[:SHOWN], 1):
        parts.append(_pair(rank, match))
    if report.skipped:
        parts.append("<h2>Not compared</h2><ul>" + "".join(f"<li>{escape(n)}</li>" for n in report.skipped) + "</ul>")
    parts.append("</body></html>")
    return "\n".join(parts)


def _leak_list(leaks: list) -> list[str]:
    """The tasks most of the class answered with the solution's code, whatever is typical."""
    if not leaks:
        return []
    items = "".join(
        f"<li><b>Task {escape(leak.task)}</b>: {len(leak.students)} of {leak.answers} answers ({leak.share:.0%}): "
        + ", ".join(escape(s) for s in leak.students) + "</li>" for leak in leaks)
    return [f"<h2>The solution's code handed in by much of the class</h2><p class='note'>In these tasks at least "
            f"{orig.LEAK_SHARE:.0%} of the answers are the instructor's solution (similarity of {orig.LEAK_SIMILARITY:.0%} "
            "or more, names and layout aside). The solution has leaked, or the task's text dictates its code. The class's "
            "typical similarity to the solution is then that code itself, so the flags below cannot single these "
            f"students out.</p><ul class='leaks'>{items}</ul>"]


KINDS = ("student", "solution", "needle")


def _task_table(report, flagged) -> list[str]:
    counts = Counter((m.code.task, m.other.kind) for m in flagged)
    answers = Counter(a.task for a in report.answers)
    typical = {(m.code.task, m.other.kind): m.typical for m in report.matches}
    rows = ["<h2>Flags per task</h2><p>Each cell: flags, and in brackets the task's typical similarity of that kind "
            "(a high one is the task's shape: the docstring dictates the answer, or needle has its own version).</p>"
            "<table><tr><th>task</th><th>notebook</th><th>answers compared</th>"
            "<th>student pairs</th><th>vs the solution</th><th>vs needle</th></tr>"]
    for task in report.tasks:
        cells = f"<td class='n'>{answers[task.key]}</td>" + "".join(
            f"<td class='n'>{counts[(task.key, kind)]} ({typical.get((task.key, kind), 0.0):.0%})</td>" for kind in KINDS)
        rows.append(f"<tr><td>{escape(task.key)}</td><td>{escape(task.notebook)}</td>{cells}</tr>")
    rows.append("</table>")
    return rows


def _pair_table(pairs) -> list[str]:
    """Pairs of students across tasks: those listed together in several tasks or flagged."""
    shown = [p for p in pairs if p.flagged or len(p.matches) > 1]
    rows = [f"<h2>Student pairs across tasks ({len(shown)})</h2>"]
    if not shown:
        return rows + ["<p>No two students are flagged together, or listed together in more than one task.</p>"]
    rows.append("<table><tr><th>students</th><th>tasks flagged</th><th>tasks listed</th><th>mean similarity</th>"
                "<th>mean excess</th><th>tasks</th></tr>")
    for p in shown[:SHOWN]:
        tasks = ", ".join(f"{escape(m.code.task)} ({m.similarity:.0%})" for m in p.matches)
        rows.append(f"<tr><td>{escape(p.student)} + {escape(p.other)}</td><td class='n'>{len(p.flagged)}</td>"
                    f"<td class='n'>{len(p.matches)}</td><td class='n'>{p.mean_similarity:.0%}</td>"
                    f"<td class='n'>{p.mean_excess:+.0%}</td><td>{tasks}</td></tr>")
    rows.append("</table>")
    return rows


def _pair(rank: int, m) -> str:
    other_title = {"student": "student", "solution": "the instructor's solution", "needle": "needle"}[m.other.kind]
    summary = (f"<summary><b>#{rank}</b><b title='typical for the task: {m.typical:.0%}'>{m.similarity:.0%}</b><span>task {escape(m.code.task)}</span>"
               f"<span>{escape(m.code.owner)}</span><span>vs {escape(m.other.kind)}</span>"
               f"<span>{escape(m.other.owner)}</span><span>{m.matched_tokens} tokens</span></summary>")
    left = f"<div class='side'><h3>{escape(m.code.owner)}, task {escape(m.code.task)}</h3>{code_html(m.code.text, m.spans, m.code.stub_lines)}</div>"
    excerpt = m.other.kind == "needle"
    right = (f"<div class='side'><h3>{escape(other_title)}: {escape(m.other.owner)}</h3>"
             f"{code_html(m.other.text, m.other_spans, m.other.stub_lines, excerpt)}</div>")
    return f"<details>{summary}<div class='pair'>{left}{right}</div></details>"


def code_html(text: str, spans, stub_lines=frozenset(), excerpt: bool = False) -> str:
    """``text`` as numbered lines, matched characters in <mark>, stub lines grey; with
    ``excerpt``, only the lines around the matches (for a long needle file)."""
    marked = bytearray(len(text))
    for start, end in spans:
        marked[start:end] = b"\x01" * (end - start)
    lines, starts, position = text.split("\n"), [], 0
    for line in lines:
        starts.append(position)
        position += len(line) + 1
    shown = range(len(lines))
    if excerpt and spans:
        first = text.count("\n", 0, min(s for s, _ in spans))
        last = text.count("\n", 0, max(e for _, e in spans) - 1)
        shown = range(max(0, first - CONTEXT_LINES), min(len(lines), last + CONTEXT_LINES + 1))
    out = ["<pre>"]
    if shown.start > 0:
        out.append(f"<span class='gap'>… lines 1-{shown.start} …</span>\n")
    for i in shown:
        body = _marked_line(lines[i], marked, starts[i])
        if i in stub_lines:
            body = f"<span class='stub'>{body}</span>"
        out.append(f"<span class='ln'>{i + 1}</span>{body}\n")
    if shown.stop < len(lines):
        out.append(f"<span class='gap'>… lines {shown.stop + 1}-{len(lines)} …</span>\n")
    out.append("</pre>")
    return "".join(out)


def _marked_line(line: str, marked: bytearray, offset: int) -> str:
    pieces, i = [], 0
    while i < len(line):
        j = i
        while j < len(line) and marked[offset + j] == marked[offset + i]:
            j += 1
        piece = escape(line[i:j])
        pieces.append(f"<mark>{piece}</mark>" if marked[offset + i] else piece)
        i = j
    return "".join(pieces)


def main(assignment: Assignment, path: Path, out: Path) -> int:
    """Write ``out``/originality.html, originality.csv and originality_pairs.csv and print a summary. Returns 0 when
    the report was written, 2 with a message on bad arguments."""
    if orig.copydetect is None:
        return fail('the originality report needs copydetect: pip install -e ".[originality]"')
    if Path(out).exists() and not Path(out).is_dir():
        return fail(f"--out {out} is a file; expected a folder for originality.html and originality.csv")
    try:
        report = orig.originality(assignment, Path(path))
    except (UsageProblem, LookupError) as exc:
        return fail(str(exc))
    write_atomic(Path(out) / "originality.csv", orig.originality_csv(report))
    write_atomic(Path(out) / "originality_pairs.csv", orig.pairs_csv(orig.student_pair_view(report)))
    write_atomic(Path(out) / "originality.html", originality_html(report))
    print(orig.summary(report))
    print(f"report: {Path(out) / 'originality.html'}, {Path(out) / 'originality.csv'}, {Path(out) / 'originality_pairs.csv'}")
    return 0
