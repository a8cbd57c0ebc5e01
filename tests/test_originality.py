"""The originality report: copies (renamed, from a classmate, from needle) are flagged, honest
answers are not, the released stub counts for nobody; the outputs are safe to open."""
import csv
import inspect
import io
import json
import re
import runpy
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

pytest.importorskip("copydetect")

import copydetect  # noqa: E402
import needle.autograd  # noqa: E402
import needle.optim  # noqa: E402
from autograder.export import originality  # noqa: E402
from autograder.export import originality_report  # noqa: E402
from autograder.export.originality_report import originality_html  # noqa: E402
from autograder.submissions import is_reserved  # noqa: E402
from autograder.notebook import grade_id, is_solution, read_notebook, source_of  # noqa: E402
from conftest import ASSIGNMENTS, LECTURE8, venv_env  # noqa: E402

FIXTURES = Path(__file__).parent / "fixtures" / "originality"
STUB = re.compile(r"^([ \t]*)# YOUR CODE HERE\n[ \t]*raise NotImplementedError\(\)", re.M)
HONEST = {"honest_a", "honest_b", "honest_c", "honest_d"}  # honest_c and honest_d answer Tasks 4.1 and 4.2 only


def fill(stub: str, blocks: list[str]) -> str:
    """A released cell with its stub blocks replaced, in order, by a student's code."""
    blocks = iter(blocks)
    return STUB.sub(lambda m: textwrap.indent(textwrap.dedent(next(blocks)).strip("\n"), m.group(1)), stub)


def submit(root: Path, student: str, answers: dict) -> None:
    """submitted/<student>/lecture8/: every released notebook, the given cells filled."""
    folder = root / "submitted" / student / LECTURE8.name
    folder.mkdir(parents=True)
    for name in LECTURE8.notebooks():
        if not LECTURE8.released_notebook(name).exists():  # a notebook being added, not released yet
            continue
        nb = json.loads(LECTURE8.released_notebook(name).read_text())
        for cell in nb["cells"]:
            if grade_id(cell) in answers:
                cell["source"] = fill(source_of(cell), answers[grade_id(cell)])
        (folder / f"{name}.ipynb").write_text(json.dumps(nb))


def body(function) -> str:
    return textwrap.dedent("".join(inspect.getsource(function).splitlines(keepends=True)[1:]))


def needle_copy() -> dict:
    """needle's own graph walk pasted into count_graph_nodes, SGD.step's body into SGD."""
    walk = textwrap.dedent(inspect.getsource(needle.autograd._topo_order))
    return {
        "task1_1_count_graph_nodes": [walk + "\nreturn len(_topo_order([t]))\n"],
        "task5_1_sgd": ["self.u = {}\nself.dampening, self.weight_decay, self.nesterov = 0.0, 0.0, False\n", body(needle.optim.SGD.step)],
    }


@pytest.fixture(scope="module")
def course_root(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("originality")
    for path in sorted(FIXTURES.glob("*.py")):
        submit(root, path.stem, runpy.run_path(str(path))["ANSWERS"])
    submit(root, "needle_copy", needle_copy())
    submit(root, "untouched", {})
    return root


@pytest.fixture(scope="module")
def report(course_root):
    # one process: the fork pool (two processes) is compared with it below, in make test's serial phase
    return originality.originality(LECTURE8, course_root, processes=1)


def flagged(report, student, kind):
    return {m.code.task: m for m in report.matches if m.flagged and m.code.owner == student and m.other.kind == kind}


# --- what is flagged ---------------------------------------------------------------------------
def test_a_renamed_copy_of_the_solution_is_flagged_against_it(report):
    assert set(flagged(report, "solution_renamed", "solution")) == {"1.1", "1.2", "4.1", "5.1"}
    assert all(m.similarity > 0.95 for m in flagged(report, "solution_renamed", "solution").values())


def solution_blocks(grade_ids: set[str]) -> dict:
    """The instructor's solution code of these cells, as a student pasting a leaked copy hands it in."""
    answers = {}
    for name in LECTURE8.notebooks():
        for cell in read_notebook(LECTURE8.source_notebook(name))["cells"]:
            if is_solution(cell) and grade_id(cell) in grade_ids:
                answers[grade_id(cell)] = re.findall(r"### BEGIN SOLUTION\n(.*?)### END SOLUTION", source_of(cell), re.S)
    assert set(answers) == grade_ids
    return answers


def test_a_class_that_wrote_its_own_code_shows_only_the_dictated_task(report):
    """4.2's text dictates its code (test_the_dictated_task_4_2_flags_nobody): half of these answers
    are the solution's, which the report says of the task (leaked or dictated), flagging nobody."""
    assert [(leak.task, leak.students) for leak in report.leaks] == [("4.2", ("honest_a", "honest_d", "solution_renamed"))]
    assert not [m for m in report.matches if m.code.task == "4.2" and m.flagged]


def test_a_leaked_solution_is_reported_whatever_is_typical(course_root, tmp_path):
    """Eight of the class paste the solution of Tasks 1.1 and 4.1: the typical similarity to the
    solution becomes 100% and no answer is flagged against it (as before this report of leaks), but
    both tasks are reported, with every student whose answer is the solution's code, the renamed
    copy among them; the honest answers are not."""
    root = tmp_path / "leaked"
    shutil.copytree(course_root, root)
    leaked = solution_blocks({"task1_1_count_graph_nodes", "task4_1_module"})
    leakers = ["josé"] + [f"leaker{i}" for i in range(1, 8)]  # a folder name the grader reports escaped
    for name in leakers:
        submit(root, name, leaked)
    report = originality.originality(LECTURE8, root, processes=1)
    assert not [m for m in report.matches if m.other.kind == "solution" and m.code.task == "1.1" and m.flagged]  # why
    assert [leak.task for leak in report.leaks] == ["1.1", "4.1", "4.2"]  # 4.2: dictated, as without the leak
    for leak in report.leaks[:2]:
        assert set(leak.students) == set(leakers) | {"solution_renamed"}, leak  # josé by name, not escaped-<hash>
        assert leak.answers >= len(leak.students) and leak.share >= originality.LEAK_SHARE
        assert not set(leak.students) & HONEST
    page = originality_html(report)
    assert "The solution's code handed in by much of the class" in page and "<b>Task 1.1</b>: 9 of" in page and "josé" in page
    assert "josé" in {row["student"] for row in csv.DictReader(io.StringIO(originality.originality_csv(report)))}
    assert "task 1.1: the solution's code in 9 of" in originality.summary(report)


def test_students_who_copied_each_other_are_flagged_as_a_pair(report):
    pairs = flagged(report, "shared_copy", "student")  # owners are ordered by name: shared_copy < shared_original
    assert set(pairs) == {"1.2", "5.1"}
    assert {m.other.owner for m in pairs.values()} == {"shared_original"}
    assert flagged(report, "shared_original", "solution") == {}  # their code is their own, not the solution's


def test_honest_answers_are_flagged_against_nothing(report):
    involved = [m for m in report.matches if {m.code.owner, m.other.owner} & HONEST]
    assert not any(m.flagged for m in involved), [(m.code.owner, m.other.owner, m.similarity, m.typical) for m in involved if m.flagged]
    # Below the flag's similarity, too, except in 4.2, whose docstring dictates the solution's lines (the next tests).
    undictated = [m for m in involved if m.code.task != "4.2"]
    assert all(m.similarity < originality.FLAG_SIMILARITY for m in undictated), [(m.code.owner, m.other.owner, m.similarity) for m in undictated]
    compared = {(a.owner, a.task) for a in report.answers}
    assert {(s, t) for s in ("honest_a", "honest_b") for t in ("1.1", "1.2", "5.1")} <= compared  # compared, not skipped
    assert {(s, t) for s in HONEST for t in ("4.1", "4.2")} <= compared


def test_a_copy_of_needle_is_flagged_against_the_needle_file_and_lines(report):
    copies = flagged(report, "needle_copy", "needle")
    assert set(copies) == {"1.1", "5.1"}
    assert copies["1.1"].other.owner == "needle/autograd.py"
    assert copies["5.1"].other.owner == "needle/optim.py"
    lines, first = inspect.getsourcelines(needle.autograd._topo_order)
    matched = originality.line_ranges(copies["1.1"].other.text, copies["1.1"].other_spans)
    low, high = (int(x) for x in matched.split()[0].split("-"))
    assert first <= low and high <= first + len(lines), matched


def test_an_untouched_notebook_has_nothing_to_compare(report):
    assert not any("untouched" in (m.code.owner, m.other.owner) for m in report.matches)


# --- how ------------------------------------------------------------------------------------
@pytest.mark.parametrize("pair", [(a, n) for a in ASSIGNMENTS for n in a.notebooks()], ids=lambda p: f"{p[0].name}/{p[1]}")
def test_released_stub_is_what_nbgrader_released(pair):
    assignment, notebook = pair
    code = lambda c: is_solution(c) and c["cell_type"] == "code"  # noqa: E731  (written answers are markdown)
    released = {grade_id(c): source_of(c) for c in read_notebook(assignment.released_notebook(notebook))["cells"] if code(c)}
    for cell in read_notebook(assignment.source_notebook(notebook))["cells"]:
        if code(cell):
            assert originality.released_stub(source_of(cell)) == released[grade_id(cell)], grade_id(cell)


def test_the_released_stub_counts_for_nobody():
    task = next(t for t in originality.instructor_tasks(read_notebook(LECTURE8.source_notebook("05_optimizer_training")), "05_optimizer_training") if t.key == "5.1")
    boilerplate = originality.stub_boilerplate(task.stub)
    ours = fill(task.stub, ["for p in self.params:\n    p.grad = None", "self.seen = []", "print(sorted(self.seen, key=len), 'lr', self.lr * 2.5)"])
    theirs = fill(task.stub, ["while self.params:\n    break", "self.q = {1: 2}", "assert all(isinstance(k, float) for k in range(3, 99))"])
    a, b = (originality.fingerprinted("student", name, task, text, boilerplate) for name, text in (("a", ours), ("b", theirs)))
    assert originality.compare(a, b).similarity == 0
    plain = [originality.fingerprint(text) for text in (ours, theirs)]  # the control: stub kept
    assert originality.compare(a, b, fps=plain).flagged  # kept, the stub alone would flag them


def test_blanking_the_stub_keeps_positions():
    text = "def f(x):\n    '''doc'''\n    return x + 1\n"
    blanked, lines = originality.without_stub(text, "def f(x):\n  '''doc'''\n    # YOUR CODE HERE\n    raise NotImplementedError()")
    assert len(blanked) == len(text) and lines == {0, 1}
    assert blanked.split("\n")[2] == "    return x + 1"


def test_passages_most_of_the_class_shares_match_no_classmate_but_still_the_solution():
    task = next(t for t in originality.instructor_tasks(read_notebook(LECTURE8.source_notebook("01_graph_accumulation")), "x") if t.key == "1.2")
    boilerplate = originality.stub_boilerplate(task.stub)
    copies = [originality.fingerprinted("student", f"s{i:02d}", task, task.solution, boilerplate) for i in range(originality.COMMON_MIN + 2)]
    assert originality.student_pairs(copies) == []  # shared by 12 > 10 answers: common idiom
    assert len(originality.student_pairs(copies[:3])) == 3  # by 3: each pair flagged
    assert all(m.flagged for m in originality.student_pairs(copies[:3]))
    solution = originality.fingerprinted("solution", "solution", task, task.solution, boilerplate)
    assert all(originality.compare(c, solution).flagged for c in copies)


@pytest.mark.forks
def test_two_processes_report_what_one_does(course_root, report):
    # copydetect's hashes are salted per interpreter: workers must share the parent's salt
    assert originality.originality_csv(originality.originality(LECTURE8, course_root, processes=2)) == originality.originality_csv(report)


# --- outputs ---------------------------------------------------------------------------------
def test_csv_is_ranked_and_thresholded(report):
    rows = list(csv.DictReader(io.StringIO(originality.originality_csv(report))))
    assert list(rows[0]) == originality.CSV_HEADER
    excesses = [float(r["excess"]) for r in rows]
    assert excesses == sorted(excesses, reverse=True)  # the most unusual first
    assert min(float(r["similarity"]) for r in rows) >= originality.LIST_SIMILARITY
    for r in rows:
        assert abs(float(r["similarity"]) - float(r["typical"]) - float(r["excess"])) <= 0.0015
        expected = float(r["similarity"]) >= originality.FLAG_SIMILARITY and float(r["excess"]) >= originality.FLAG_EXCESS
        assert (r["flagged"] == "yes") == expected, r


def test_csv_cells_cannot_be_formulas(report):
    match = next(m for m in report.matches if m.other.kind == "student")
    hostile = originality.Report([originality.Match(
        originality.Code("student", "=HYPERLINK(\"x\")", "+1", match.code.text, fingerprint=match.code.fingerprint),
        originality.Code("student", "@SUM(A1)", "+1", match.other.text), 0.9, 10, (), ())], 2, [], [], [])
    row = next(csv.reader(io.StringIO(originality.originality_csv(hostile).splitlines()[1])))
    assert row[:3] == ["'+1", "'=HYPERLINK(\"x\")", "'@SUM(A1)"]


def test_html_escapes_student_code_and_needs_nothing_from_outside(course_root, tmp_path):
    root = tmp_path / "root"
    answers = runpy.run_path(str(FIXTURES / "solution_renamed.py"))["ANSWERS"]
    answers["task1_1_count_graph_nodes"] = [answers["task1_1_count_graph_nodes"][0] + "\n# </pre><script>alert(1)</script>\n"]
    submit(root, "mallory", answers)
    page = originality_html(originality.originality(LECTURE8, root, processes=1))
    assert "&lt;/pre&gt;&lt;script&gt;alert(1)&lt;/script&gt;" in page
    assert "<script" not in page and not re.search(r"\b(src|href)=|@import|url\(|https?:", page)
    assert "<mark>" in page and "<span class='stub'>" in page


@pytest.mark.forks  # main compares on every core
def test_main_writes_both_reports_and_says_what_it_flagged(course_root, tmp_path, capsys):
    assert originality_report.main(LECTURE8, course_root, tmp_path / "out") == 0
    assert (tmp_path / "out" / "originality.csv").read_text().startswith(",".join(originality.CSV_HEADER))
    assert (tmp_path / "out" / "originality.html").read_text().startswith("<!doctype html>")
    assert not list((tmp_path / "out").glob(".*.tmp"))  # written atomically: no temporary left
    printed = capsys.readouterr().out
    assert "8 flagged" in printed and "shared_copy" in printed
    assert "pair shared_copy + shared_original: listed together in 2 tasks, flagged in 2" in printed
    pairs = list(csv.DictReader((tmp_path / "out" / "originality_pairs.csv").open()))
    assert list(pairs[0]) == originality.PAIRS_CSV_HEADER
    assert (pairs[0]["student"], pairs[0]["other"], pairs[0]["tasks_flagged"], pairs[0]["tasks"]) == ("shared_copy", "shared_original", "2", "1.2 5.1")
    # a student folder of any of these names would collide with it in a shared --out: escaped
    assert all(is_reserved(p.name) for p in (tmp_path / "out").iterdir())


def test_unreadable_and_oversized_submissions_are_named_not_fatal(tmp_path, monkeypatch):
    submit(tmp_path, "good", runpy.run_path(str(FIXTURES / "honest_a.py"))["ANSWERS"])
    submit(tmp_path, "broken", {})
    (tmp_path / "submitted" / "broken" / "lecture8" / "01_graph_accumulation.ipynb").write_text("{not json")
    submit(tmp_path, "huge", {"task1_1_count_graph_nodes": ["x = 1\n" * 5000]})
    monkeypatch.setattr(originality, "MAX_ANSWER_CHARS", 20_000)  # 30,000 characters: over it
    report = originality.originality(LECTURE8, tmp_path, processes=1)
    assert any(n.startswith("broken/01_graph_accumulation: ") and "JSON" in n for n in report.skipped)
    assert [n.split(":")[0] for n in report.skipped if n.startswith("huge")] == ["huge, task 1.1"]
    assert {a.owner for a in report.answers} == {"good"}  # the rest: skipped, or untouched stubs


@pytest.mark.parametrize("args, says", [
    (["{root}/nowhere", "--out", "{tmp}/out"], "does not exist"),
    (["{root}", "--out", "{tmp}/out", "--assignment", "lecture99"], "unknown assignment 'lecture99'"),
    (["{root}", "--out", "{tmp}/file"], "is a file"),
])
def test_bad_arguments_exit_2_with_a_message(course_root, tmp_path, args, says):
    (tmp_path / "file").write_text("")
    argv = [a.format(root=course_root, tmp=tmp_path) for a in args]
    proc = subprocess.run([sys.executable, "-m", "autograder", "originality", *argv], capture_output=True, text=True, env=venv_env())
    assert proc.returncode == 2 and says in proc.stderr, proc.stderr
    assert not (tmp_path / "out").exists()


def test_runs_as_a_process(course_root, tmp_path):
    proc = subprocess.run([sys.executable, "-m", "autograder", "originality", str(course_root), "--out", str(tmp_path)],
                          capture_output=True, text=True, env=venv_env())
    assert proc.returncode == 0, proc.stderr
    assert {p.name for p in tmp_path.iterdir()} == {"originality.csv", "originality.html", "originality_pairs.csv"}


def test_html_shows_the_most_similar_and_points_to_the_csv_for_the_rest(report, monkeypatch):
    from autograder.export import originality_report

    monkeypatch.setattr(originality_report, "SHOWN", 2)
    page = originality_html(report)
    assert page.count("<details>") == 2 and "originality.csv lists all 8" in page


# --- copies rank above independent work; what the whole class shares is the task's shape ----------
def test_a_renamed_copy_of_task_4_1_ranks_above_independent_work(report):
    on_41 = [m for m in report.matches if m.code.task == "4.1"]
    copy = next(m for m in on_41 if m.code.owner == "solution_renamed" and m.other.kind == "solution")
    independent = [m for m in on_41 if {m.code.owner, m.other.owner} & HONEST]
    assert independent, "the independent answers to 4.1 share nothing with anybody: the test would prove nothing"
    assert copy.flagged and not any(m.flagged for m in independent)
    assert all(copy.similarity > m.similarity and copy.excess > m.excess for m in independent)
    assert report.matches.index(copy) < min(report.matches.index(m) for m in independent)


def test_names_are_anonymous_builtins_included():
    """solution_renamed's 4.1 names its variables next, object, input, list_: with those kept as
    words (copydetect's own normalisation keeps builtins) it matched 26% of the solution, under the
    listing threshold, while independent answers matched about 45%."""
    task = next(t for t in originality.instructor_tasks(read_notebook(LECTURE8.source_notebook("04_module_parameters")), "04") if t.key == "4.1")
    released = next(source_of(c) for c in read_notebook(LECTURE8.released_notebook("04_module_parameters"))["cells"]
                    if grade_id(c) == "task4_1_module")
    copy = fill(released, runpy.run_path(str(FIXTURES / "solution_renamed.py"))["ANSWERS"]["task4_1_module"])
    boilerplate = originality.stub_boilerplate(task.stub)
    answer, solution = (originality.fingerprinted(kind, kind, task, text, boilerplate) for kind, text in (("student", copy), ("solution", task.solution)))
    assert originality.compare(answer, solution).similarity == 1.0

    def words_kept(text):  # copydetect's normalisation alone: builtins stay words
        blanked = originality.without_stub(text, task.stub)[0]
        return copydetect.CodeFingerprint("c.py", originality.NOISE, originality.WINDOW, fp=io.StringIO(blanked), language="python")
    assert originality.compare(answer, solution, fps=(words_kept(copy), words_kept(task.solution))).similarity < originality.LIST_SIMILARITY


def test_normalising_names_keeps_every_position_keywords_and_string_prefixes():
    text = 'for input in object:\n    next(f"{input}", rb"x", 1e5, 0x1f)  # list\nif not None: pass\n'
    out = originality.normalise_names(text)
    assert len(out) == len(text) and [len(line) for line in out.split("\n")] == [len(line) for line in text.split("\n")]
    assert out == 'for vvvvv in vvvvvv:\n    vvvv(f"{vvvvv}", rb"x", 1e5, 0x1f)  # vvvv\nif not None: pass\n'


def test_what_the_whole_class_shares_with_a_file_is_not_flagged(tmp_path):
    """Six answers that all hold a file's code (needle's own version of a dictated task): typical
    for the task, so none is flagged; three answers are too few to calibrate: all flagged."""
    task = next(t for t in originality.instructor_tasks(read_notebook(LECTURE8.source_notebook("04_module_parameters")), "04") if t.key == "4.2")
    package = tmp_path / "needle"
    package.mkdir()
    blanked = originality.without_stub(task.solution, task.stub)[1]  # "needle's file": the dictated lines, no stub
    (package / "models.py").write_text("\n".join(line for i, line in enumerate(task.solution.split("\n")) if i not in blanked))
    needle_index = originality.NeedleIndex(package)
    boilerplate = originality.stub_boilerplate(task.stub)
    answers = [originality.fingerprinted("student", f"s{i}", task, task.solution + f"\n# answer {i}\n", boilerplate) for i in range(6)]
    nothing = originality.Code("solution", "solution", "4.2", "")  # no solution to compare with
    matches = [m for m in originality.compare_task(answers, nothing, needle_index) if m.other.kind == "needle"]
    assert len(matches) == 6 and all(m.similarity >= originality.FLAG_SIMILARITY for m in matches)
    assert min(m.typical for m in matches) >= originality.FLAG_SIMILARITY and not any(m.flagged for m in matches)
    few = [m for m in originality.compare_task(answers[:3], nothing, needle_index) if m.other.kind == "needle"]
    assert len(few) == 3 and all(m.flagged and m.typical == 0 for m in few)


def test_the_dictated_task_4_2_flags_nobody(report):
    on_42 = [m for m in report.matches if m.code.task == "4.2"]
    assert not any(m.flagged for m in on_42)
    versus_solution = [m for m in on_42 if m.other.kind == "solution"]
    assert sum(m.similarity >= 0.85 for m in versus_solution) >= 4  # most of the class writes the solution's lines
    assert min(m.typical for m in versus_solution) > 0.9  # which is the task's shape
    assert not [m for m in on_42 if m.other.kind == "student"]  # the solution's lines are no evidence between students


def test_the_solutions_passages_are_no_evidence_between_students():
    task = next(t for t in originality.instructor_tasks(read_notebook(LECTURE8.source_notebook("01_graph_accumulation")), "x") if t.key == "1.2")
    boilerplate = originality.stub_boilerplate(task.stub)
    copies = [originality.fingerprinted("student", f"s{i}", task, task.solution, boilerplate) for i in range(3)]
    solution = originality.fingerprinted("solution", "solution", task, task.solution, boilerplate)
    assert len(originality.student_pairs(copies)) == 3
    assert originality.student_pairs(copies, frozenset(solution.fingerprint.hashes)) == []


def test_pairs_of_students_across_tasks(report):
    view = originality.student_pair_view(report)
    first = view[0]
    assert (first.student, first.other) == ("shared_copy", "shared_original")
    assert [m.code.task for m in first.matches] == ["1.2", "5.1"] and len(first.flagged) == 2
    assert all(len(p.flagged) <= len(first.flagged) for p in view)
    page = originality_html(report)
    assert "<h2>Student pairs across tasks (1)</h2>" in page and "<td>shared_copy + shared_original</td>" in page



def _sigterm_is_default(_):
    import signal

    return signal.getsignal(signal.SIGTERM) == signal.SIG_DFL


def test_the_fork_pools_workers_die_on_sigterm_whatever_their_parent_does():
    """The report's fork pool once hung a test run: its workers inherited the grader's SIGTERM
    handler (cli.main had run in the same process), so one outlived Pool.terminate, blocked on
    the task queue. A parent with a handler of its own stands for it."""
    script = ("import signal, sys; sys.path.insert(0, 'tests')\n"
              "from autograder.export import originality\n"
              "from test_originality import _sigterm_is_default\n"
              "signal.signal(signal.SIGTERM, lambda *a: None)\n"
              "print(originality.in_workers(_sigterm_is_default, list(range(8)), None, 2))\n")
    proc = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60, env=venv_env(),
                          cwd=Path(__file__).parents[1])
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert proc.stdout.strip() == str([True] * 8)
