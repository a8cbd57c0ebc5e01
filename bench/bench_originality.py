"""Seconds for the whole originality report (`autograder.export.originality_report.main`) on a synthetic class:
500 students x 7 notebooks by default (target: under a minute on two cores).

    .venv/bin/python bench/bench_originality.py [--students 500] [--notebooks 7]

The course has fewer notebooks than 7: the missing ones are copies of its notebooks with their
tasks renumbered (the code to compare is the same kind). Per task, each student's answer is
(about): 9% the instructor's solution with its names renamed (flagged against the solution); 6%
in groups of three, renamed copies of one answer (flagged as pairs); 4% the untouched stub; the
rest the solution renamed and rewritten (statements inserted from a small
pool of templates and deleted at random), so that honest answers share short runs with a few
classmates, as real ones do, which is what makes the pair search work.
"""
import argparse
import ast
import io
import json
import keyword
import random
import re
import resource
import shutil
import sys
import tempfile
import time
import tokenize
import zlib
from contextlib import redirect_stdout
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from autograder.course import Assignment, Course  # noqa: E402
from autograder.export import originality, originality_report  # noqa: E402
from autograder.cpus import default_jobs  # noqa: E402
from autograder.notebook import grade_id, is_solution  # noqa: E402

ASSIGNMENT = "lecture8"
WORDS = "alpha beta gamma delta node item acc tmp val res cur nxt seen out buf val vec mat cnt idx".split()
TEMPLATES = [  # inserted statements: {v} a local name, {n} a digit
    "{v} = {v}", "assert {v} is not None", "{v}_copy = {v}", "if {v} is None:\n    {v} = {n}", "print({v})",
    "n_{v} = {n}", "del {v}_copy" , "{v} = list({v}) if isinstance({v}, tuple) else {v}", "pass",
    "total = {n} + {n}", "for _ in range({n}):\n    pass", "{v}_ok = bool({v})",
]


def course_with(notebooks: int, root: Path) -> Assignment:
    """A scratch course whose solutions hold ``notebooks`` notebooks (the course's, then copies)."""
    real = Course.locate().assignment(ASSIGNMENT)
    source = root / "solutions" / ASSIGNMENT
    source.mkdir(parents=True)
    names = real.notebooks()
    for i in range(notebooks):
        original = names[i % len(names)]
        nb = json.loads(real.source_notebook(original).read_text())
        name = original if i < len(names) else f"{i + 1:02d}_copy_of_{original[3:]}"
        if i >= len(names):
            for cell in nb["cells"]:
                meta = cell["metadata"].get("nbgrader", {})
                if "grade_id" in meta:
                    meta["grade_id"] = re.sub(r"^task\d+_", f"task{i + 1}_", meta["grade_id"])
        (source / f"{name}.ipynb").write_text(json.dumps(nb))
    return Assignment(Course(root), ASSIGNMENT)


def local_names(code: str) -> set:
    try:
        tree = ast.parse(code)
    except SyntaxError:
        return set()
    return {n.id for n in ast.walk(tree) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}


def renamed(code: str, rng: random.Random) -> str:
    """Every local variable renamed, consistently, at random (the given signatures are kept, as
    students keep them); the layout kept."""
    mapping = {n: f"{rng.choice(WORDS)}_{rng.randrange(100)}" for n in local_names(code)}
    lines = code.split("\n")
    previous = None
    edits = []  # (row, column, old, new), applied right to left so columns stay valid
    for tok in tokenize.generate_tokens(io.StringIO(code).readline):
        if tok.type == tokenize.NAME and tok.string in mapping and previous != "." and not keyword.iskeyword(tok.string):
            edits.append((tok.start[0] - 1, tok.start[1], tok.string, mapping[tok.string]))
        previous = tok.string
    for row, col, old, new in sorted(edits, reverse=True):
        lines[row] = lines[row][:col] + new + lines[row][col + len(old):]
    return "\n".join(lines)


def rewritten(body: str, rng: random.Random) -> str:
    """Statements inserted after about half of the lines, and some lines deleted (a body of one
    or two lines is left as it is: it is too short to be compared anyway)."""
    names = sorted(local_names(body)) or ["x"]
    if body.strip().count("\n") < 2:
        return body
    out = []
    for line in body.split("\n"):
        if line.strip() and not line.rstrip().endswith(":") and rng.random() < 0.15:
            continue
        out.append(line)
        if line.strip() and rng.random() < 0.5:
            indent = re.match(r"\s*", line).group(0) + ("    " if line.rstrip().endswith(":") else "")
            statement = rng.choice(TEMPLATES).format(v=rng.choice(names), n=rng.randrange(10))
            out += [indent + s for s in statement.split("\n")]
    return "\n".join(out)


BLOCK = re.compile(r"^([ \t]*)### BEGIN SOLUTION[ \t]*\n(.*?)^[ \t]*### END SOLUTION[ \t]*$", re.M | re.S)


def answer(solution: str, kind: str, rng: random.Random, shared: dict, key) -> str:
    if kind == "stub":
        return originality.released_stub(solution)
    if kind == "copied":
        return renamed(BLOCK.sub(lambda m: m.group(2).rstrip("\n"), solution), rng)
    if kind == "group":
        if key not in shared:
            shared[key] = BLOCK.sub(lambda m: rewritten(m.group(2).rstrip("\n"), rng), solution)
        return renamed(shared[key], rng)
    return renamed(BLOCK.sub(lambda m: rewritten(m.group(2).rstrip("\n"), rng), solution), rng)


def make_class(assignment: Assignment, root: Path, students: int, seed: int = 0) -> None:
    rng = random.Random(seed)
    shared: dict = {}
    for s in range(students):
        folder = root / "submitted" / f"student{s:03d}" / ASSIGNMENT
        folder.mkdir(parents=True)
        for name in assignment.notebooks():
            nb = json.loads(assignment.source_notebook(name).read_text())
            for cell in nb["cells"]:
                if not is_solution(cell):
                    continue
                salt = zlib.crc32(grade_id(cell).encode())  # which students do what varies per task
                if (s // 3 * 7919 + salt) % 100 < 6:
                    kind = "group"
                else:
                    share = (s * 7919 + salt) % 100
                    kind = "copied" if share < 10 else "stub" if share < 14 else "own"
                key = (grade_id(cell), s // 3)
                cell["source"] = answer("".join(cell["source"]), kind, rng, shared, key)
            (folder / f"{name}.ipynb").write_text(json.dumps(nb))


def cpu_seconds() -> float:
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def timed_main(assignment: Assignment, work: Path, processes: int) -> tuple[float, float, str]:
    """Wall and CPU seconds of ``originality_report.main`` with ``processes`` workers, and what it printed."""
    originality.default_jobs = lambda: processes  # main() uses every core; the bench chooses
    start, cpu = time.perf_counter(), cpu_seconds()
    with redirect_stdout(io.StringIO()) as printed:
        status = originality_report.main(assignment, work, work / f"out{processes}")
    if status != 0:
        sys.exit(f"originality.main exited {status}")
    return time.perf_counter() - start, cpu_seconds() - cpu, printed.getvalue()


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--students", type=int, default=500)
    parser.add_argument("--notebooks", type=int, default=7)
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="bench-originality-"))
    try:
        assignment = course_with(args.notebooks, work)
        start = time.perf_counter()
        make_class(assignment, work, args.students)
        print(f"made {args.students} students x {args.notebooks} notebooks in {time.perf_counter() - start:.1f} s")
        cores = default_jobs()
        runs = {n: timed_main(assignment, work, n) for n in sorted({cores, 1}, reverse=True)}
        print(runs[cores][2].splitlines()[0])
        tasks = sum(len(originality.instructor_tasks(json.loads(assignment.source_notebook(n).read_text()), n)) for n in assignment.notebooks())
        pairs = tasks * args.students * (args.students - 1) // 2
        rows = (work / f"out{cores}" / "originality.csv").read_text().count("\n") - 1
        print(f"{tasks} tasks; {pairs:,} student pairs covered; {rows:,} comparisons listed in originality.csv")
        for n, (wall, cpu, _) in runs.items():
            print(f"  main(), {n} process{'es' if n > 1 else ''}: {wall:6.1f} s wall, {cpu:6.1f} s CPU, {pairs / wall:10,.0f} pairs/s"
                  f"   {runs[1][0] / wall:4.2f}x one process")
        print("  target: under 60 s for 500 students x 7 notebooks on two cores")
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
