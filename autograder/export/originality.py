"""The originality report: how much of each task's answer also appears in another student's
answer, in the instructor's solution, or in needle's own source (all within a student's reach),
beyond what the task makes everybody write.

What is compared: a task's answer is the student's solution cells for that task (nbgrader
grade_ids ``taskN_M_*``, matched as the grader matches them), joined. Each answer is compared
with every other student's answer to the same task, with the instructor's solution of the task
and with every file of needle (the best file is reported).

How (copydetect, MOSS's winnowing): Pygments tokenizes the code; names become one token, strings
another, comments and whitespace vanish, so renaming variables, rewording comments or re-indenting
changes nothing. Every name is made anonymous first, builtins included (``normalise_names``):
a copy whose names happen to be builtins (``next``, ``input``, ``object``) would otherwise keep
them as words and match nothing. Every run of ``NOISE`` normalised tokens (copydetect's default
noise threshold; copydetect counts a normalised character as a token, a name as one) is
fingerprinted; shorter matches are not counted, so a one-line answer can match nothing. The
released stub (signature, docstring, given lines) is blanked out of every answer and its k-grams
are copydetect boilerplate: the text everybody was given counts for nobody.

Similarity is the share of an answer's fingerprinted code that lies in matched spans. A pair of
answers, or an answer and the solution, take the larger of their two shares (padding a copy with
extra code does not hide it); against needle, the answer's share (needle's files are long).
Between students, passages found in more than ``max(COMMON_MIN, COMMON_SHARE * answers)`` answers
are common idiom (MOSS's ``-m``): they match nobody but still count in the answer's length, so a
pair is similar only when much of the code is a rare passage they share; this also keeps the
pair search near-linear. Passages of the instructor's solution match no classmate either: two
students who both wrote the solution's lines are compared with the solution, not with each
other. Common passages still count against the solution and needle.

Calibrated per task: what most of the class shares with a text is the task's shape (a docstring
that dictates the answer, needle's own version of a small module), not copying. Each comparison
carries the task's *typical* similarity of its kind: the median, over the class, of each answer's
similarity to the solution, of each answer's best needle file, or of every pair of answers (pairs
sharing no rare passage count 0); 0 when fewer than ``CALIBRATE_FROM`` students answered. Its *excess* is its similarity minus the typical one, and the
report ranks by excess: an unusual match first.

A leaked solution: when most of a class hands in the solution's code, the class's typical
similarity to the solution is that code, and no answer stands out from it. So a task where at
least ``LEAK_SHARE`` of the answers (of ``CALIBRATE_FROM`` or more) are the solution's code
(similarity ``LEAK_SIMILARITY`` or more, names and layout aside) is reported as a task, with those
students, whatever is typical: the solution has leaked, or the task's text dictates its code.

Thresholds: a comparison is listed in originality.csv from ``LIST_SIMILARITY`` on and flagged
(originality.html) from ``FLAG_SIMILARITY`` on when its excess is at least ``FLAG_EXCESS``. A flag
is a reason to read the code, not a verdict. Pairs of students are also shown across tasks: the
same two students listed together in several tasks say more than one high match.
"""
from __future__ import annotations

import copy
import csv
import dataclasses
import difflib
import importlib.util
import io
import keyword
import multiprocessing
import re
import signal
import statistics
from collections import Counter, defaultdict
from dataclasses import dataclass
from pathlib import Path

from ..console import printable
from ..course import Assignment, task_of
from ..cpus import default_jobs
from ..csvcells import cell as csv_cell
from ..notebook import UnreadableNotebook, grade_id, is_solution, read_notebook, source_of, student_solutions
from ..results import task_key
from ..submissions import UsageProblem, discover

try:  # the "originality" extra; main() says how to install it when it is missing
    import copydetect
except ImportError:
    copydetect = None

NOISE = 25  # copydetect.defaults.NOISE_THRESHOLD: shortest match counted, in normalised tokens
WINDOW = 1  # every k-gram is a fingerprint (copydetect's defaults: guarantee 25 - noise 25 + 1)
LIST_SIMILARITY = 0.3
FLAG_SIMILARITY = 0.6
FLAG_EXCESS = 0.25  # above the task's typical similarity of the same kind
CALIBRATE_FROM = 5  # answers to a task from which its typical similarities are measured
LEAK_SIMILARITY = 0.95  # an answer this similar to the solution is the solution's code
LEAK_SHARE = 0.5  # a task where this share of the answers is the solution's code is reported as a leak
COMMON_MIN, COMMON_SHARE = 10, 0.05
NEEDLE_CANDIDATES = 3  # needle files compared exactly per answer: those sharing most fingerprints
MAX_ANSWER_CHARS = 100_000  # longer answers are not compared (and are named in the report)
CSV_HEADER = ["task", "student", "other", "other_kind", "similarity", "matched_tokens", "other_lines", "flagged", "typical", "excess"]
PAIRS_CSV_HEADER = ["student", "other", "tasks_flagged", "tasks_listed", "mean_similarity", "mean_excess", "tasks"]
STUB = "# YOUR CODE HERE\nraise NotImplementedError()"  # nbgrader_config.py's ClearSolutions.code_stub
SOLUTION_BLOCK = re.compile(r"^([ \t]*)### BEGIN SOLUTION[ \t]*\n.*?^[ \t]*### END SOLUTION[ \t]*$", re.M | re.S)


@dataclass
class Code:
    """One text compared: a student's answer to a task, the solution of a task, a needle file."""

    kind: str  # "student", "solution" or "needle"
    owner: str  # the student, "solution", or the needle file ("needle/autograd.py")
    task: str  # "1.1"; "" for a needle file
    text: str  # as written: what the report shows
    stub_lines: frozenset = frozenset()  # 0-based lines of the released stub, blanked before fingerprinting
    fingerprint: object = None  # copydetect.CodeFingerprint; None when too short to compare


@dataclass(frozen=True)
class Match:
    code: Code  # always a student's answer
    other: Code
    similarity: float
    matched_tokens: int
    spans: tuple  # (start, end) character ranges of ``code.text`` that match
    other_spans: tuple
    typical: float = 0.0  # the task's typical similarity of this kind (module docstring)

    @property
    def excess(self) -> float:
        return self.similarity - self.typical

    @property
    def flagged(self) -> bool:
        return self.similarity >= FLAG_SIMILARITY and self.excess >= FLAG_EXCESS


@dataclass(frozen=True)
class Task:
    key: str  # "1.1", or the grade_id of a cell not named taskN_M_*
    notebook: str
    solution: str
    stub: str


# --- the instructor's side ------------------------------------------------------------------
def released_stub(source: str) -> str:
    """A solution cell as nbgrader releases it: each solution block replaced by the stub."""
    return SOLUTION_BLOCK.sub(lambda m: "\n".join(m.group(1) + line for line in STUB.splitlines()), source)


def task_of_cell(grade_id: str) -> str:
    """The task a solution cell answers: "N.M", or the cell's grade_id when not named taskN_M_*."""
    return task_of(grade_id) or grade_id


def instructor_tasks(instructor: dict, notebook: str) -> list[Task]:
    """The tasks of an instructor notebook: its solution cells grouped by task, in order."""
    grouped: dict[str, list] = defaultdict(list)
    for cell in instructor["cells"]:
        if is_solution(cell) and cell.get("cell_type") == "code":
            grouped[task_of_cell(grade_id(cell))].append(cell)
    return [
        Task(key, notebook, "\n\n".join(source_of(c) for c in cells), "\n\n".join(released_stub(source_of(c)) for c in cells))
        for key, cells in grouped.items()
    ]


# --- fingerprints ----------------------------------------------------------------------------
def without_stub(text: str, stub: str) -> tuple[str, frozenset]:
    """``text`` with the lines it shares with the stub (in order, whitespace ignored) turned
    into spaces, so character positions still point into ``text``; and those lines' numbers."""
    lines = text.split("\n")
    squeezed = ["".join(line.split()) for line in stub.split("\n")], ["".join(line.split()) for line in lines]
    matcher = difflib.SequenceMatcher(None, *squeezed, autojunk=False)
    blank = frozenset(j for block in matcher.get_matching_blocks() for j in range(block.b, block.b + block.size))
    return "\n".join(" " * len(line) if i in blank else line for i, line in enumerate(lines)), blank


NAME = re.compile(r"""\b[^\W\d]\w*\b(?!['"])""")  # a name; not a string's prefix (f"", rb'')


def normalise_names(text: str) -> str:
    """Every name that is not a keyword replaced by one of the same length (``vvv``): Pygments
    then makes each one copydetect's V, builtins included, and every character keeps its
    position (the report's highlighted spans point into the text as written). Names inside
    strings and comments change too, which changes nothing: copydetect drops both."""
    return NAME.sub(lambda m: m.group() if keyword.iskeyword(m.group()) else "v" * len(m.group()), text)


def fingerprint(text: str, boilerplate=None):
    """copydetect's fingerprint of Python code; None when no run of NOISE tokens is left."""
    fp = copydetect.CodeFingerprint("code.py", NOISE, WINDOW, boilerplate, fp=io.StringIO(normalise_names(text)), language="python")
    return fp if fp.hashes else None


def stub_boilerplate(stub: str) -> list:
    """Every k-gram of the stub (window 1), as copydetect's own boilerplate files are read."""
    return sorted(copydetect.CodeFingerprint("stub.py", NOISE, 1, fp=io.StringIO(normalise_names(stub)), language="python").hashes)


def fingerprinted(kind: str, owner: str, task: Task, text: str, boilerplate) -> Code:
    """A Code with its fingerprint: the stub's lines blanked, its k-grams as boilerplate."""
    blanked, stub_lines = without_stub(text, task.stub)
    return Code(kind, owner, task.key, text, stub_lines, fingerprint(blanked, boilerplate))


@dataclass(frozen=True)
class Submissions:
    """What reading answers needs: per notebook, the instructor's notebook and its tasks."""

    instructor: dict  # notebook -> the instructor's notebook
    tasks: dict  # notebook -> {task key: Task}


def answer_texts(job, submissions: Submissions) -> tuple[list[tuple[str, str]], list[str]]:
    """A notebook's answers as (task key, code), and notes on what cannot be compared."""
    try:
        submitted = read_notebook(job.path)
    except UnreadableNotebook as exc:
        return [], [f"{job.original_id}/{job.notebook}: {exc}"]
    sources: dict[str, list[str]] = defaultdict(list)
    for cell_grade_id, cells in student_solutions(submissions.instructor[job.notebook], submitted):
        sources[task_of_cell(cell_grade_id)].extend(cells)
    answers, notes = [], []
    for key, cells in sources.items():
        text = "\n\n".join(cells)
        if len(text) > MAX_ANSWER_CHARS:
            notes.append(f"{job.original_id}, task {key}: the answer is {len(text):,} characters long, over the {MAX_ANSWER_CHARS:,} compared")
        elif key in submissions.tasks[job.notebook]:
            answers.append((key, text))
    return answers, notes


_state = None  # what the worker functions below read; set before the workers fork


def _set_state(state) -> None:
    global _state
    _state = state


def in_workers(function, items: list, state, processes: int) -> list:
    """``[function(item) for item in items]`` over ``processes`` forked workers, ``state``
    visible to them. Fork, not spawn: copydetect hashes k-grams with hash(), salted per
    interpreter; forked workers share this process's salt, so their fingerprints compare
    with needle's, made here."""
    _set_state(state)
    if processes < 2 or len(items) < 2:
        return [function(item) for item in items]
    with multiprocessing.get_context("fork").Pool(processes, initializer=_default_sigterm) as pool:
        results = pool.map(function, items, chunksize=max(1, len(items) // (8 * processes)))
        # Let the workers finish on their own: leaving the with block terminates them (SIGTERM),
        # and a worker killed while holding the task queue's lock hangs the ones still reading.
        pool.close()
        pool.join()
    return results


def _default_sigterm() -> None:
    """A pool worker is a fork: a SIGTERM handler of its parent's (the grader's, when this runs
    in the same process) would make it outlive Pool.terminate."""
    signal.signal(signal.SIGTERM, signal.SIG_DFL)


def _answer_texts(job) -> tuple[list[tuple[str, str]], list[str]]:
    return answer_texts(job, _state)


# --- comparing -------------------------------------------------------------------------------
def compare(code: Code, other: Code, answer_share_only: bool = False, fps=None) -> Match:
    """copydetect's comparison of two fingerprinted codes (``fps``: fingerprints to use instead)."""
    fp, other_fp = fps or (code.fingerprint, other.fingerprint)
    overlap, (share, other_share), (spans, other_spans) = copydetect.compare_files(fp, other_fp)
    similarity = share if answer_share_only else max(share, other_share)
    return Match(code, other, float(similarity), int(overlap), _ranges(spans, code.text), _ranges(other_spans, other.text))


def _ranges(slices, text: str) -> tuple:
    """copydetect's slices as (start, end) pairs, without the whitespace around them."""
    ranges = []
    for start, end in zip(*slices) if len(slices) and len(slices[0]) else ():
        piece = text[start:end]
        start, end = int(start) + len(piece) - len(piece.lstrip()), int(end) - len(piece) + len(piece.rstrip())
        if start < end:
            ranges.append((start, end))
    return tuple(ranges)


def without_hashes(fp, drop: set):
    """A copy of a fingerprint that ignores the ``drop`` fingerprints. Its coverage (the
    denominator of similarity) stays the whole answer's: a pair that shares only a few rare
    lines of otherwise common code is not similar."""
    kept = copy.copy(fp)
    kept.hashes = fp.hashes - drop
    kept.hash_idx = {h: i for h, i in fp.hash_idx.items() if h not in drop}
    return kept


def student_pairs(answers: list[Code], explained: frozenset = frozenset()) -> list[Match]:
    """The pairs of answers to one task that share uncommon fingerprints, compared. ``explained``:
    fingerprints that match no classmate either (the solution's: two answers that both match
    the solution are reported against it, not against each other)."""
    frequency = Counter(h for a in answers for h in a.fingerprint.hashes)
    limit = max(COMMON_MIN, COMMON_SHARE * len(answers))
    common = {h for h, n in frequency.items() if n > limit} | explained
    holders: dict[int, list[int]] = defaultdict(list)  # a shared, uncommon fingerprint -> its answers
    for i, answer in enumerate(answers):
        for h in answer.fingerprint.hashes:
            if 1 < frequency[h] <= limit and h not in explained:
                holders[h].append(i)
    candidates = {(a, b) for ids in holders.values() for k, a in enumerate(ids) for b in ids[k + 1:]}
    private: dict[int, object] = {}  # fingerprints without the common ones, made when needed

    def uncommon(i):
        if i not in private:
            fp = answers[i].fingerprint
            private[i] = without_hashes(fp, common & fp.hashes) if common & fp.hashes else fp
        return private[i]

    matches = []
    for pair in sorted(candidates):
        a, b = sorted(pair, key=lambda i: answers[i].owner)
        matches.append(compare(answers[a], answers[b], fps=(uncommon(a), uncommon(b))))
    return matches


class NeedleIndex:
    """needle's source files, fingerprinted once, and which files hold each fingerprint."""

    def __init__(self, package: Path):
        self.files = []
        for path in sorted(package.rglob("*.py")):
            text = path.read_text(encoding="utf-8")
            fp = fingerprint(text)
            if fp is not None:
                self.files.append(Code("needle", path.relative_to(package.parent).as_posix(), "", text, frozenset(), fp))
        self.holders: dict[int, list[int]] = defaultdict(list)
        for i, code in enumerate(self.files):
            for h in code.fingerprint.hashes:
                self.holders[h].append(i)

    def best_match(self, answer: Code) -> Match | None:
        shared = Counter(i for h in answer.fingerprint.hashes for i in self.holders.get(h, ()))
        candidates = sorted(shared, key=lambda i: (-shared[i], i))[:NEEDLE_CANDIDATES]
        matches = [compare(answer, self.files[i], answer_share_only=True) for i in candidates]
        return max(matches, key=lambda m: m.similarity, default=None)


def needle_package() -> Path:
    """The needle students import (found without importing it)."""
    spec = importlib.util.find_spec("needle")
    if spec is None or not spec.submodule_search_locations:
        raise UsageProblem("needle is not importable here: install the course (pip install -e .) to compare with its source")
    return Path(list(spec.submodule_search_locations)[0])


# --- the whole report ------------------------------------------------------------------------
@dataclass
class Report:
    matches: list  # the listed comparisons (similarity >= LIST_SIMILARITY), most unusual (excess) first
    students: int
    answers: list  # [Code]: every answer long enough to compare
    tasks: list  # [Task]
    skipped: list  # what could not be compared, and why
    leaks: list = dataclasses.field(default_factory=list)  # [Leak], in task order


@dataclass(frozen=True)
class Leak:
    """A task where a large share of the class handed in the solution's code (module docstring)."""

    task: str
    students: tuple  # whose answers are the solution's code, by name
    answers: int  # the task's answers long enough to compare

    @property
    def share(self) -> float:
        return len(self.students) / self.answers


def leaks(matches: list[Match], answers: list[Code]) -> list[Leak]:
    """The tasks where at least LEAK_SHARE of the answers are the solution's code."""
    counts = Counter(a.task for a in answers)
    identical: dict[str, list[str]] = defaultdict(list)
    for m in matches:
        if m.other.kind == "solution" and m.similarity >= LEAK_SIMILARITY:
            identical[m.code.task].append(m.code.owner)
    found = [Leak(task, tuple(sorted(students)), counts[task]) for task, students in identical.items()
             if counts[task] >= CALIBRATE_FROM and len(students) >= LEAK_SHARE * counts[task]]
    return sorted(found, key=lambda leak: task_key(leak.task))


def typical(similarities: list[float], count: int, answers: int) -> float:
    """The median of ``count`` similarities of which ``similarities`` are the non-zero ones;
    0 for a task with fewer than CALIBRATE_FROM answers (too few to say what is typical)."""
    return statistics.median(similarities + [0.0] * (count - len(similarities))) if answers >= CALIBRATE_FROM else 0.0


def compare_task(answers: list[Code], solution: Code, needle: NeedleIndex) -> list[Match]:
    """Every listed comparison of one task's fingerprinted answers, in no particular order, each
    with the task's typical similarity of its kind (the median over the class: module docstring)."""
    explained = frozenset(solution.fingerprint.hashes) if solution.fingerprint is not None else frozenset()
    found: dict[str, list[Match]] = {"solution": [], "needle": [], "student": student_pairs(answers, explained)}
    for answer in answers:
        if solution.fingerprint is not None:
            found["solution"].append(compare(answer, solution))
        best = needle.best_match(answer)
        if best is not None:
            found["needle"].append(best)
    counts = {"solution": len(answers), "needle": len(answers), "student": len(answers) * (len(answers) - 1) // 2}
    listed = []
    for kind, matches in found.items():
        middle = typical([m.similarity for m in matches], counts[kind], len(answers))
        listed += [dataclasses.replace(m, typical=middle) for m in matches if m.similarity >= LIST_SIMILARITY]
    return listed


@dataclass(frozen=True)
class Tasks:
    """What comparing needs (visible to the workers): the tasks and their answers, and needle."""

    tasks: dict  # task key -> Task
    answers: dict  # task key -> [(student, code)]
    boilerplate: dict  # task key -> the stub's k-gram hashes
    needle: NeedleIndex


def _compare_task(key: str) -> tuple[dict, list]:
    """In a worker: fingerprint a task's answers (each once) and compare them. Returns the stub
    lines of the answers long enough to compare (by their index in the task's answers) and
    the matches, every code named by index: no fingerprint travels back to the parent."""
    task, boilerplate = _state.tasks[key], _state.boilerplate[key]
    codes = [fingerprinted("student", student, task, text, boilerplate) for student, text in _state.answers[key]]
    compared = {i: code for i, code in enumerate(codes) if code.fingerprint is not None}
    solution = fingerprinted("solution", "solution", task, task.solution, boilerplate)
    index = {id(code): i for group in (codes, _state.needle.files) for i, code in enumerate(group)}
    matches = compare_task(list(compared.values()), solution, _state.needle)
    return ({i: code.stub_lines for i, code in compared.items()},
            [(index[id(m.code)], m.other.kind, index.get(id(m.other), 0), m.similarity, m.matched_tokens, m.spans, m.other_spans, m.typical)
             for m in matches])


def originality(assignment: Assignment, path: Path, processes: int | None = None) -> Report:
    """Compare every answer found under ``path`` (a course root, a student's folder, a notebook)."""
    processes = processes or default_jobs()
    jobs = discover(path, assignment)
    notebooks = sorted({j.notebook for j in jobs})
    instructor = {name: read_notebook(assignment.source_notebook(name)) for name in notebooks}
    by_notebook = {name: {t.key: t for t in instructor_tasks(instructor[name], name)} for name in notebooks}
    tasks = {key: task for name in notebooks for key, task in by_notebook[name].items()}
    submitted = [j for j in jobs if j.path is not None]
    read = in_workers(_answer_texts, submitted, Submissions(instructor, by_notebook), processes)
    texts: dict[str, list[tuple[str, str]]] = {key: [] for key in tasks}
    for job, (answers, _) in zip(submitted, read):
        for key, text in answers:
            texts[key].append((job.original_id, text))  # the name people read (josé), not the escaped id

    boilerplate = {key: stub_boilerplate(task.stub) for key, task in tasks.items()}
    needle = NeedleIndex(needle_package())
    largest_first = sorted(tasks, key=lambda key: -sum(len(text) for _, text in texts[key]))  # even out the workers
    found = dict(zip(largest_first, in_workers(_compare_task, largest_first, Tasks(tasks, texts, boilerplate, needle), processes)))
    answers, matches = [], []
    for key, task in tasks.items():
        stub_lines, records = found[key]
        codes = {i: Code("student", texts[key][i][0], key, texts[key][i][1], lines) for i, lines in stub_lines.items()}
        answers += codes.values()
        solution = Code("solution", "solution", key, task.solution, without_stub(task.solution, task.stub)[1])
        others = {"student": codes, "solution": [solution], "needle": needle.files}
        matches += [Match(codes[i], others[kind][j], *numbers) for i, kind, j, *numbers in records]
    matches.sort(key=lambda m: (-round(m.excess, 6), -m.similarity, -m.matched_tokens, m.code.task, m.code.owner, m.other.kind, m.other.owner))
    skipped = [f"{j.original_id}/{j.notebook}: {j.problem}" for j in jobs if j.problem] + [note for _, notes in read for note in notes]
    return Report(matches, len({j.student for j in jobs}), answers, list(tasks.values()), skipped, leaks(matches, answers))


# --- outputs ---------------------------------------------------------------------------------
def line_ranges(text: str, spans) -> str:
    """1-based line ranges covered by character spans, e.g. "3-9 14-15"."""
    ranges = []
    for start, end in spans:
        first, last = text.count("\n", 0, start) + 1, text.count("\n", 0, end - 1) + 1
        if ranges and first <= ranges[-1][1] + 1:
            ranges[-1][1] = max(ranges[-1][1], last)
        else:
            ranges.append([first, last])
    return " ".join(f"{a}-{b}" if a != b else f"{a}" for a, b in ranges)


def originality_csv(report: Report) -> str:
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    writer.writerow(CSV_HEADER)
    for m in report.matches:  # every text cell neutralised: student names and needle paths alike
        writer.writerow([csv_cell(m.code.task), csv_cell(m.code.owner), csv_cell(m.other.owner), m.other.kind, f"{m.similarity:.3f}",
                         m.matched_tokens, line_ranges(m.other.text, m.other_spans), "yes" if m.flagged else "no",
                         f"{m.typical:.3f}", f"{m.excess:.3f}"])
    return buf.getvalue()


@dataclass
class Pair:
    """Two students across tasks: the tasks in which their answers are listed together."""

    student: str
    other: str
    matches: list  # [Match], one per task

    @property
    def flagged(self) -> list:
        return [m for m in self.matches if m.flagged]

    @property
    def mean_similarity(self) -> float:
        return sum(m.similarity for m in self.matches) / len(self.matches)

    @property
    def mean_excess(self) -> float:
        return sum(m.excess for m in self.matches) / len(self.matches)


def student_pair_view(report: Report) -> list[Pair]:
    """Every pair of students listed together in some task, those with the most flagged tasks
    first, then the most tasks listed, then the larger mean excess."""
    pairs: dict[tuple, list] = defaultdict(list)
    for m in report.matches:
        if m.other.kind == "student":
            pairs[tuple(sorted((m.code.owner, m.other.owner)))].append(m)
    view = [Pair(a, b, sorted(ms, key=lambda m: task_key(m.code.task))) for (a, b), ms in pairs.items()]
    return sorted(view, key=lambda p: (-len(p.flagged), -len(p.matches), -round(p.mean_excess, 6), p.student, p.other))


def pairs_csv(pairs: list[Pair]) -> str:
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    writer.writerow(PAIRS_CSV_HEADER)
    for p in pairs:
        writer.writerow([csv_cell(p.student), csv_cell(p.other), len(p.flagged), len(p.matches), f"{p.mean_similarity:.3f}",
                         f"{p.mean_excess:.3f}", csv_cell(" ".join(m.code.task for m in p.matches))])
    return buf.getvalue()


def summary(report: Report) -> str:
    flagged = [m for m in report.matches if m.flagged]
    kinds = Counter(m.other.kind for m in flagged)
    lines = [f"originality: {len(report.answers)} answers of {report.students} students to {len(report.tasks)} tasks; "
             f"{len(flagged)} flagged (similarity >= {FLAG_SIMILARITY} and >= {FLAG_EXCESS} above the task's typical): "
             f"{kinds['student']} student pairs, {kinds['solution']} vs the solution, {kinds['needle']} vs needle"]
    for leak in report.leaks:
        lines.append(f"  task {leak.task}: the solution's code in {len(leak.students)} of {leak.answers} answers ({leak.share:.0%}): "
                     "a leaked solution, or a task whose text dictates its code (the students: originality.html)")
    for m in flagged[:10]:
        lines.append(f"  {m.similarity:5.2f} (typical {m.typical:4.2f})  task {m.code.task:<5} {printable(m.code.owner, 24):<24}  "
                     f"{m.other.kind:<8} {printable(m.other.owner, 32)}")
    if len(flagged) > 10:
        lines.append(f"  ... {len(flagged) - 10} more in the report")
    repeated = [p for p in student_pair_view(report) if len(p.matches) > 1]
    for p in repeated[:5]:
        lines.append(f"  pair {printable(p.student, 24)} + {printable(p.other, 24)}: listed together in {len(p.matches)} tasks, "
                     f"flagged in {len(p.flagged)}")
    for note in report.skipped:
        lines.append(f"  not compared: {printable(note, 120)}")
    return "\n".join(lines)
