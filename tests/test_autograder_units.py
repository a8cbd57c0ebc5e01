"""Units of the grader: the plain-data codec, notebook reading and cell matching, the session."""
import json
import math
import os
import re
import sys
import time
from pathlib import Path

import nbformat
import numpy as np
import pytest
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook

from autograder import notebook as nbmod
from autograder import plaindata as codec
from autograder.grade import worker_clock
from autograder.grade.session import Session, SessionConfig
from autograder.grade.zygote_client import ZygoteLauncher
from autograder.grade.zygote_client import ZygoteProcess as Zygote
from autograder.suite import describe_outcome


# --- codec ------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "value",
    [None, True, 3, -2.5, "text", [1, [2, 3]], {"a": {"b": [1.0]}}, float("nan"), float("inf"), -math.inf,
     np.arange(6, dtype=np.float32).reshape(2, 3), np.array([True, False]), np.zeros((0, 3)), np.int64(7), np.float32(1.5)],
    ids=repr,
)
def test_codec_round_trip(value):
    back = codec.from_plain(codec.loads(codec.dumps(codec.to_plain(value))))
    if isinstance(value, np.ndarray):
        assert back.dtype == value.dtype and back.shape == value.shape and np.array_equal(back, value)
    elif isinstance(value, float) and math.isnan(value):
        assert math.isnan(back)
    else:
        assert back == value and type(back) is type(value.item() if isinstance(value, np.generic) else value)


@pytest.mark.parametrize("value", [object(), np.array(["a"]), np.array([object()]), {1: 2}, {"__ndarray__": 1}, [[[[]]]] * 0 + [lambda: 0]])
def test_codec_refuses_anything_but_plain_data(value):
    with pytest.raises(codec.EncodeError):
        codec.to_plain(value)


@pytest.mark.parametrize(
    "raw",
    [
        {"__ndarray__": "AAAA", "dtype": "object", "shape": [1]},
        {"__ndarray__": "AAAA", "dtype": "float64", "shape": [5]},
        {"__ndarray__": "!!", "dtype": "uint8", "shape": [1]},
        {"__float__": "1e400"},
        {"__ndarray__": "AA==", "dtype": "uint8", "shape": [-1]},
    ],
)
def test_codec_decoding_validates(raw):
    with pytest.raises(codec.DecodeError):
        codec.from_plain(raw)


def test_codec_rejects_malformed_messages():
    for data in (b"\xff\xfe", b"{not json", b"[" * 100000):
        with pytest.raises(codec.DecodeError):
            codec.loads(data)


def test_codec_refuses_a_message_of_too_many_values_before_decoding_it():
    """A worker may forge a reply: 64 MiB of empty lists would cost the trusted process gigabytes
    to decode. A message counting more than MAX_VALUES (commas and opening brackets) is refused
    unread; one just under is decoded."""
    n = codec.MAX_VALUES
    assert len(codec.loads(b"[" + b"0," * (n - 2) + b"0]")) == n - 1
    with pytest.raises(codec.DecodeError, match="too many values"):
        codec.loads(b"[" + b"0," * n + b"0]")


# --- reading notebooks -----------------------------------------------------------------------
@pytest.mark.parametrize("source", [
    "if (a\n        != b):\n    pass\n",  # a condition broken before != (PEP 8)
    "x = (7\n     % 3)\n",  # an operator starting a continued line
    "x = 7 + \\\n%3\n",  # after a backslash
    's = """\n%d items\n!done\n"""\n',  # % and ! inside a string
    "f(1,  # !\n  2)\n",
])
def test_python_lines_starting_with_percent_or_bang_are_kept(source):
    assert nbmod.strip_magics(source) == source


def test_magics_and_shell_escapes_become_pass_with_line_numbers_kept():
    source = "%%time\nx = 1\n!ls -la\ndef f():\n    %timeit g()\n    return (x\n            % 2)\n%matplotlib inline\n"
    assert nbmod.strip_magics(source) == (
        "pass\nx = 1\npass\ndef f():\n    pass\n    return (x\n            % 2)\npass\n")
    # a shell escape whose text is not Python (an open bracket): still one line of pass
    assert nbmod.strip_magics("!echo $HOME (\nx = 1\n") == "pass\nx = 1\n"
    assert nbmod.strip_magics('s = """\n%d\n"""\n%time f()\n') == 's = """\n%d\n"""\npass\n'


def test_unreadable_notebooks_give_a_reason(tmp_path):
    cases = {"bin.ipynb": b"\xff\xfe\x00", "bad.ipynb": b"{ nope", "list.ipynb": b"[1, 2]", "nocells.ipynb": b'{"cells": 3}'}
    reasons = {"bin.ipynb": "not UTF-8", "bad.ipynb": "not valid notebook JSON", "list.ipynb": "not a notebook", "nocells.ipynb": "not a notebook"}
    for name, data in cases.items():
        (tmp_path / name).write_bytes(data)
        with pytest.raises(nbmod.UnreadableNotebook, match=reasons[name]):
            nbmod.read_notebook(tmp_path / name)
    with pytest.raises(nbmod.UnreadableNotebook, match="cannot read"):
        nbmod.read_notebook(tmp_path / "missing.ipynb")


def test_enormous_notebook_is_refused_without_reading_it(tmp_path, monkeypatch):
    path = tmp_path / "big.ipynb"
    path.write_bytes(b" " * 2048)
    monkeypatch.setattr(nbmod, "MAX_NOTEBOOK_BYTES", 1024)
    with pytest.raises(nbmod.UnreadableNotebook, match="over the"):
        nbmod.read_notebook(path)


def test_a_cell_of_more_code_than_any_honest_one_is_refused_before_it_is_parsed(tmp_path):
    """20 MB of code in one cell (a list literal) took 9 GB to parse in the grader (red team, round 9):
    a code cell over 256 KB makes the notebook unreadable, with the cell named; markdown is not code."""
    path = tmp_path / "huge.ipynb"
    big = "big = [" + "1, " * 100_000 + "]\n"
    path.write_text(json.dumps({"nbformat": 4, "cells": [new_markdown_cell(big), new_code_cell("x = 1"), new_code_cell(big)]}))
    with pytest.raises(nbmod.UnreadableNotebook, match="cell 3 holds 292 KB of code, over the 256 KB"):
        nbmod.read_notebook(path)
    path.write_text(json.dumps({"nbformat": 4, "cells": [new_markdown_cell(big), new_code_cell("x = 1")]}))
    assert len(nbmod.read_notebook(path)["cells"]) == 2


def test_links_devices_and_fifos_are_refused_without_reading(tmp_path):
    real = tmp_path / "real.ipynb"
    real.write_text(json.dumps({"nbformat": 4, "cells": []}))
    assert nbmod.read_notebook(real)["cells"] == []
    (tmp_path / "link.ipynb").symlink_to(real)
    (tmp_path / "zero.ipynb").symlink_to("/dev/zero")
    os.mkfifo(tmp_path / "fifo.ipynb")  # opening it blocking would hang the grader
    for name, reason in (("link.ipynb", "symbolic link"), ("zero.ipynb", "symbolic link"), ("fifo.ipynb", "not a regular file")):
        with pytest.raises(nbmod.UnreadableNotebook, match=reason):
            nbmod.read_notebook(tmp_path / name)


def test_error_messages_never_repeat_the_students_values(tmp_path):
    path = tmp_path / "forged.ipynb"
    path.write_text(json.dumps({"nbformat": "NOTE FROM COURSE STAFF: 153/153", "cells": []}))
    with pytest.raises(nbmod.UnreadableNotebook) as err:
        nbmod.read_notebook(path)
    assert "STAFF" not in str(err.value) and "format is not 4" in str(err.value)


def _nbg(grade_id, solution=False, grade=False):
    return {"nbgrader": {"grade": grade, "grade_id": grade_id, "locked": not solution, "schema_version": 3, "solution": solution, "task": False}}


def instructor_nb():
    cells = [
        new_code_cell("import numpy as np", metadata={"tags": ["setup"], **_nbg("setup")}),
        new_code_cell("demo()"),
        new_code_cell("def f(): return 1", metadata=_nbg("task1_1_f", solution=True)),
        new_code_cell("assert f() == 1", metadata=_nbg("task1_1_tests", grade=True)),
        new_code_cell("def g(): return 2", metadata=_nbg("task1_2_g", solution=True)),
    ]
    cells[2].id, cells[4].id = "cell-f", "cell-g"
    return new_notebook(cells=cells)


def test_grading_code_takes_setup_from_instructor_and_solutions_from_student():
    student = instructor_nb()
    student.cells[0].source = "import os; os.system('evil')"  # the student's copy of setup is ignored
    student.cells[2].source = "def f(): return 'student'"
    student.cells.insert(0, new_code_cell("demo()\nplot(f())"))  # an added cell that only calls things is not run
    code = grading_code(instructor_nb(), student)
    assert code == ["import numpy as np", "def f(): return 'student'", "def g(): return 2"]


def test_added_cells_run_their_definitions_where_the_student_put_them():
    """A task written in a new cell below its stub replaces the stub, as in the student's kernel;
    the calls in added cells (demos, plots, training) become comments, their line numbers kept."""
    student = instructor_nb()
    student.cells[2].source = "def f():\n    raise NotImplementedError()"  # the stub, left in place
    student.cells.insert(3, new_code_cell("import math\n\ndef f():\n    return math.e\n\nprint(f())"))
    student.cells.insert(4, new_code_cell("f()"))  # a call only: not run
    student.cells.append(new_code_cell("@cache\ndef g():\n    return 3\nEPS = 1e-8\nscale = lambda x: x * helper()\nhistory = train(g)"))
    student.cells.insert(0, new_code_cell("TOP = 1"))  # above every solution cell
    code = grading_code(instructor_nb(), student)
    assert code == ["import numpy as np", "TOP = 1", "def f():\n    raise NotImplementedError()",
                    "import math\n\ndef f():\n    return math.e\n\n#(not run) print(f())", "def g(): return 2",
                    "@cache\ndef g():\n    return 3\nEPS = 1e-8\nscale = lambda x: x * helper()\n#(not run) history = train(g)"]
    # the instructor's own cells (demos, copied or edited) are not "added"; nor are nbgrader cells
    copied = new_code_cell("demo()")
    instructor = instructor_nb()
    test_copy = new_code_cell("def f(): return 'cheat'", metadata=_nbg("task1_1_tests", grade=True))
    student = nbformat.from_dict(json.loads(nbformat.writes(instructor)))
    student.cells[1].source = "def demo(): pass"  # the demo cell (its id is the instructor's), edited
    student.cells += [copied, test_copy]
    assert grading_code(instructor, student) == ["import numpy as np", "def f(): return 1", "def g(): return 2"]


def test_definitions_only_keeps_line_numbers_and_refuses_shared_lines():
    assert nbmod.definitions_only("x = f()\ndef g():\n    return x\n") == "#(not run) x = f()\ndef g():\n    return x\n"
    assert nbmod.definitions_only("import os; os.system('x')") == ""
    assert nbmod.definitions_only("%matplotlib inline\nclass A:\n    pass") == "#(not run) %matplotlib inline\nclass A:\n    pass"
    assert nbmod.definitions_only("def broken(:") == ""
    assert nbmod.definitions_only("print(1)") == ""


def test_matching_survives_reordering_lost_grade_ids_and_duplicates():
    student = instructor_nb()
    student.cells[2].source, student.cells[4].source = "F", "G"
    student.cells[2], student.cells[4] = student.cells[4], student.cells[2]  # reordered
    assert grading_code(instructor_nb(), student)[1:] == ["F", "G"]
    student.cells[2].metadata["nbgrader"]["grade_id"] = "renamed"  # falls back to cell id
    assert grading_code(instructor_nb(), student)[1:] == ["F", "G"]
    dup = nbformat.from_dict(json.loads(json.dumps(student.cells[4])))
    dup.source, dup.id = "F2", "cell-f-copy"
    student.cells.append(dup)  # duplicated: both copies run, in order
    assert grading_code(instructor_nb(), student)[1:] == ["F", "F2", "G"]


def test_cell_turned_into_markdown_or_deleted_is_missing():
    student = instructor_nb()
    student.cells[4] = new_markdown_cell("def g(): return 2", metadata=_nbg("task1_2_g", solution=True))
    assert dict(student_solutions(instructor_nb(), student))["task1_2_g"] == []
    assert "def g(): return 2" not in grading_code(instructor_nb(), student)
    del student.cells[2]
    assert "def f(): return 1" not in grading_code(instructor_nb(), student)


def test_written_answers_take_no_part_in_the_matching():
    instructor = instructor_nb()
    answer = new_markdown_cell("model answer", metadata=_nbg("nb_answer_1", solution=True, grade=True))
    instructor.cells.insert(3, answer)
    student = instructor_nb()
    student.cells[2].metadata["nbgrader"]["grade_id"], student.cells[2].id = "lost", "lost"  # only its position says
    student.cells.insert(1, new_markdown_cell("YOUR ANSWER HERE", metadata=_nbg("nb_answer_1", solution=True, grade=True)))
    student.cells[3].source = "def f(): return 'mine'"
    assert grading_code(instructor, student)[1:] == ["def f(): return 'mine'", "def g(): return 2"]


def test_plain_notebook_without_metadata_runs_all_its_code():
    plain = new_notebook(cells=[new_code_cell("def f(): return 1"), new_markdown_cell("x"), new_code_cell("def g(): return 2")])
    assert grading_code(instructor_nb(), plain) == ["import numpy as np", "def f(): return 1", "def g(): return 2"]


def grading_code(instructor, student):
    """The grader reads notebooks as plain JSON: give it what json.loads would."""
    return nbmod.grading_code(json.loads(nbformat.writes(instructor)), json.loads(nbformat.writes(student)))


def student_solutions(instructor, student):
    return nbmod.student_solutions(json.loads(nbformat.writes(instructor)), json.loads(nbformat.writes(student)))


# --- messages ---------------------------------------------------------------------------------
def test_only_builtin_exception_names_reach_the_student():
    assert describe_outcome("raised", "ZeroDivisionError", ()) == "your code raised ZeroDivisionError"
    assert describe_outcome("raised", "Secret_1_2_3", ()) == "your code raised an exception"
    assert "not defined" in describe_outcome("missing", "f", ("f",))
    assert "leak_me" not in describe_outcome("missing", "leak_me", ("f",))


# --- session ----------------------------------------------------------------------------------
PROBES = '''
from autograder.probing import need, probe

@probe("f")
def call(ns, x):
    return need(ns, "f")(x)
'''


@pytest.fixture(scope="module")
def zygote():
    z = Zygote()
    yield z
    z.close()


@pytest.fixture
def session(zygote):
    def make(cells, **kw):
        return Session(SessionConfig(cells, PROBES, load_timeout=kw.pop("load_timeout", 5.0), **kw), ZygoteLauncher(zygote.path))

    return make


def test_session_answers_and_survives_crashes_and_hangs(session):
    s = session(["import os, time", "def f(x):\n    if x == 1: os._exit(3)\n    if x == 2: time.sleep(100)\n    return x * 2"])
    try:
        assert s.call("call", {"x": 5}, 5).value == 10
        assert s.call("call", {"x": 1}, 5).kind == "crashed"
        assert s.call("call", {"x": 2}, 1).kind == "timeout"
        assert s.call("call", {"x": 7}, 5).value == 14  # a fresh worker took over
        assert s.starts == 3
    finally:
        s.close()


def test_session_skips_a_cell_that_kills_or_hangs_the_worker(session):
    s = session(["import os", "os._exit(1)", "import time\ntime.sleep(100)", "def f(x): return -x"], load_timeout=1.0)
    try:
        assert s.call("call", {"x": 3}, 5).value == -3
        assert s.skip == {1, 2}
    finally:
        s.close()


def test_session_reports_missing_names_and_unencodable_values(session):
    s = session(["def g(): pass"])
    try:
        assert s.call("call", {"x": 1}, 5).kind == "missing"
    finally:
        s.close()
    s = session(["def f(x): return object()"])
    try:
        assert s.call("call", {"x": 1}, 5).kind == "unencodable"
    finally:
        s.close()


# --- reports ----------------------------------------------------------------------------------
def _results():
    from autograder.results import NotebookResult, TestResult

    def t(test, task, passed, message=""):
        return TestResult(test, f"what {test} checks", task, 2.0, 2.0 if passed else 0.0,
                          "passed" if passed else "failed", "" if passed else message)

    graded = NotebookResult("ann", "01_a", [t("test_basic", "1.1", False, "call reset_grad first"),
                                           t("test_more", "1.1", False, "call reset_grad first"),
                                           t("test_shape", "1.1", False, "the shape is (2,)"),
                                           t("test_easy", "1.1", True), t("test_other", "1.2", True)], assignment="lecture8")
    missing = NotebookResult("ann", "02_b", [t("test_x", "2.1", False, "notebook not submitted")], "notebook not submitted",
                             assignment="lecture8")
    missing.tests[0].reason = "not submitted"
    return graded, missing


def test_feedback_page_says_what_to_fix_first_and_folds_the_rest():
    from autograder.export.report import feedback_html

    graded, missing = _results()
    page = feedback_html("ann", [graded, missing], "lecture8")
    assert page.count("What to fix first") == 1 and page.count("call reset_grad first") == 1
    assert page.index("what test_basic checks") < page.index("What to fix first") < page.index("what test_more checks")
    assert "2 more tests fail too (likely the same cause)" in page and page.count("the shape is (2,)") == 1
    assert "<summary>✓ 1 test passes</summary>" in page and "<summary>✓ all 1 tests pass</summary>" in page
    assert "Not submitted: this notebook scores 0." in page and "notebook not submitted" not in page
    assert "<script" not in page


def test_a_flagged_submission_is_told_only_that():
    from autograder.export.report import FLAGGED, feedback_html, gradescope_json

    graded, missing = _results()
    graded.review = ["cell 2, line 1: raw memory access (__array_interface__)"]
    page = feedback_html("ann", [graded, missing], "lecture8")
    assert FLAGGED in page
    for leak in ("reset_grad", "test_basic", "what test", "Total", "array_interface", "01_a", "/"):
        assert leak not in page.split("<body>")[1].replace("</", ""), leak
    seen = gradescope_json([graded, missing], student_view=True)
    assert seen["output"] == FLAGGED
    assert all(t["visibility"] == "hidden" and t["output"] == "" for t in seen["tests"] if t["extra_data"]["notebook"] == "01_a")
    assert any(t["output"] == "call reset_grad first" for t in gradescope_json([graded])["tests"])  # the instructor's copy


def test_summary_marks_missing_notebooks_apart_from_failures():
    from autograder.export.summary import summary_table

    graded, missing = _results()
    broken = type(graded)("bob", "01_a", [graded.tests[0]], "internal grading error", assignment="lecture8")
    late = type(graded)("cid", "01_a", list(graded.tests), assignment="lecture8", late_seconds=60.0, penalty=1.0)
    table = summary_table([graded, missing, broken, late])
    ann, bob, cid = (next(line for line in table.splitlines() if line.startswith(name)) for name in ("ann", "bob", "cid"))
    assert "missing" in ann and "!" not in ann
    assert "0/2!" in bob and "3/10L" in cid  # 4 points earned, 1 taken for lateness
    assert "missing = not submitted" in table and "! = could not be fully graded" in table


def test_grades_csv_has_the_new_columns_and_a_late_row():
    from autograder.export.report import grades_csv

    graded, missing = _results()
    graded.late_seconds, graded.penalty = 3600.0, 1.5
    lines = grades_csv([graded, missing]).splitlines()
    assert lines[0] == "student,notebook,test,score,max_score,status,assignment,task,reason"
    assert "ann,01_a,late_penalty,-1.5,0,late,lecture8,,late" in lines
    assert "ann,02_b,test_x,0,2,failed,lecture8,2.1,not submitted" in lines


# --- deadlines --------------------------------------------------------------------------------
def test_late_policies_and_due_dates():
    import datetime as dt

    from autograder.grade.deadline import Deadline, parse_due, parse_policy
    from autograder.timestamps import duration
    from autograder.submissions import UsageProblem

    day = 86400
    assert parse_policy("10%").penalty(1, score=15, max_score=20) == 2  # a started day counts
    assert parse_policy("10%/day").penalty(2 * day + 1, score=15, max_score=20) == 6
    assert parse_policy("2").penalty(day, score=15, max_score=20) == 2
    assert parse_policy("100%").penalty(1, score=15, max_score=20) == 15  # never more than was earned
    assert parse_policy("3").penalty(0, score=15, max_score=20) == 0
    for bad in ("ten", "-1", "150%", "5 per week"):
        with pytest.raises(UsageProblem):
            parse_policy(bad)
    due = parse_due("2025-03-01T13:00+01:00")
    assert due == parse_due("2025-03-01T12:00") == parse_due("2025-03-01T12:00Z")  # no offset: UTC
    with pytest.raises(UsageProblem, match="ISO 8601"):
        parse_due("1 March")
    submitted = dt.datetime(2025, 3, 2, 15, 30, tzinfo=dt.timezone.utc)
    assert Deadline(due).late_seconds(submitted) == (27 * 60 + 30) * 60
    assert duration(Deadline(due).late_seconds(submitted)) == "1 day 3 h 30 min" and duration(61) == "2 min"


def test_submission_time_reads_nbgrader_timestamp_else_the_file_time(tmp_path):
    import datetime as dt

    from autograder.timestamps import submission_time

    nb = tmp_path / "01_a.ipynb"
    nb.write_text("{}")
    os.utime(nb, (1_700_000_000, 1_700_000_000))
    assert submission_time(nb) == dt.datetime.fromtimestamp(1_700_000_000, dt.timezone.utc)
    (tmp_path / "timestamp.txt").write_text("2025-03-01 10:00:00.5 UTC")
    assert submission_time(nb) == dt.datetime(2025, 3, 1, 10, 0, 0, 500000, tzinfo=dt.timezone.utc)
    (tmp_path / "timestamp.txt").write_text("NOTE FROM STAFF: on time")  # unreadable: the file's time
    assert submission_time(nb).year == 2023


# --- selfcheck: the suite's points against the notebook's grade cells --------------------------
def test_selfcheck_catches_a_suite_worth_other_points_than_its_grade_cell(tmp_path):
    import shutil

    from autograder.course import Course
    from autograder.check.selfcheck import check_points

    fixture = Path(__file__).parent / "fixtures" / "lecture_fixture"
    shutil.copytree(fixture / "solutions", tmp_path / "solutions")
    shutil.copytree(fixture / "suites", tmp_path / "autograder" / "suites")
    lecture = Course.locate(tmp_path).assignment("lecture_fixture")
    assert check_points(lecture, "01_square") == []
    path = lecture.source_notebook("01_square")
    nb = json.loads(path.read_text())
    cell = next(c for c in nb["cells"] if c["metadata"].get("nbgrader", {}).get("grade_id") == "task1_1_tests")
    cell["metadata"]["nbgrader"]["points"] = 4
    path.write_text(json.dumps(nb))
    assert check_points(lecture, "01_square") == [
        "Task 1.1: the suite's tests are worth 3 points, the notebook's grade cell says 4 (nbgrader caps the gradebook at the cell's points)"]
    cell["metadata"]["nbgrader"]["grade_id"] = "task1_2_tests"
    path.write_text(json.dumps(nb))
    assert check_points(lecture, "01_square") == [
        "Task 1.1's tests are worth 3 points but the notebook has no grade cell task1_1_tests for it",
        "Task 1.2 has a grade cell worth 4 points but no test in test_01_square.py"]


def test_two_suites_of_one_name_in_one_process_each_run_their_own_tests(tmp_path):
    # pytest names a suite's module after its file: a long-lived process (a Dask worker's forker)
    # that collected one course version's suite must not grade the next version with it.
    from autograder.suiterun import collect_tests

    for version, test in (("v1", "test_old_rule"), ("v2", "test_new_rule")):
        (tmp_path / version).mkdir()
        (tmp_path / version / "test_07_same_name.py").write_text(
            f'from autograder.suite import graded\n\n\n@graded("7.1", points=1)\ndef {test}():\n    """{version}"""\n')
    assert [t[0] for t in collect_tests(tmp_path / "v1" / "test_07_same_name.py")] == ["test_old_rule"]
    assert [t[0] for t in collect_tests(tmp_path / "v2" / "test_07_same_name.py")] == ["test_new_rule"]


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_the_clock_ends_a_stopped_worker_as_an_asleep_one():
    """A worker stopped by a SIGSTOP of its own (state T, no CPU used) owes an answer it will never
    give: the clock ends it after ASLEEP_LIMIT seconds, not at the wall-clock backstop."""
    import signal
    import subprocess

    child = subprocess.Popen([sys.executable, "-c", "import os, signal; os.kill(os.getpid(), signal.SIGSTOP)"])
    try:
        while worker_clock.cpu_and_state(child.pid)[1] != b"T":
            time.sleep(0.01)
        clock = worker_clock.WorkerClock(child.pid, cpu_budget=10.0)
        assert clock.deadline - time.monotonic() > 100  # the backstop: 10 x 10 s + 60 s
        start = time.monotonic()
        with pytest.raises(worker_clock.OverBudget):
            while time.monotonic() - start < 30:
                clock.check()
                time.sleep(0.05)
        assert time.monotonic() - start < worker_clock.ASLEEP_LIMIT + 2
    finally:
        child.send_signal(signal.SIGKILL)
        child.wait()


def test_the_reader_checks_the_budget_while_a_reply_drips_in():
    """Red team, round 4: a frame announced and then fed a byte every 10 ms never left the reader
    50 ms without data, and the budget's check ran only then. It runs every 50 ms regardless."""
    import threading

    from autograder.sandbox import protocol

    read_fd, write_fd = os.pipe()
    stop = threading.Event()

    def drip():
        os.write(write_fd, (1 << 16).to_bytes(4, "big"))
        while not stop.is_set():
            os.write(write_fd, b" ")
            time.sleep(0.01)

    class Spent(Exception):
        pass

    checks = []

    def on_wait():
        checks.append(time.monotonic())
        if len(checks) >= 5:
            raise Spent()

    writer = threading.Thread(target=drip, daemon=True)
    writer.start()
    start = time.monotonic()
    try:
        with pytest.raises(Spent):
            protocol.receive(read_fd, deadline=start + 30, on_wait=on_wait)
        assert time.monotonic() - start < 5  # five checks, 50 ms apart, not the deadline
    finally:
        stop.set()
        writer.join()
        os.close(read_fd)
        os.close(write_fd)


def test_a_name_missing_because_its_cell_does_not_compile_is_named_as_such():
    """Class audit: `def detach(t)` without its colon read "`detach` is not defined: run (or
    restore) the cell that defines it". The cell does not compile; the message says so, at the
    line, read on the trusted side from the submitted cells."""
    from autograder.grade.runner import _does_not_compile

    cells = ["import numpy as np", "def detach(t)\n    return t  # note"]
    said = _does_not_compile(cells, "detach")
    assert said.startswith("`detach` is not defined: your cell does not compile (SyntaxError at line 1")
    assert "`def detach(t)`" in said and "note" not in said
    assert _does_not_compile(cells, "other") == ""  # no broken cell defines it: the usual message
    assert _does_not_compile(["def detach(t):\n    return t"], "detach") == ""


def test_a_late_penalty_is_taken_once_everywhere_and_never_beyond_the_points_earned(tmp_path):
    """Mutation audit: the total column, the Gradescope late entry's sign, the feedback's Total and
    the clamp (a 100% penalty takes what was earned, not the notebook's points) were each
    unguarded. Here 4 of 10 points earned, one day late under a 100%-a-day policy: 4 taken."""
    import datetime as dt
    import re

    from autograder.export.report import feedback_html, gradescope_json
    from autograder.export.summary import summary_table
    from autograder.grade.deadline import Deadline, parse_policy
    from autograder.timestamps import nbgrader_timestamp
    from autograder.grade.grading import complete
    from autograder.submissions import Job

    graded, _ = _results()  # 4 of 10: test_easy and test_other pass, 2 points each
    notebook = tmp_path / "01_a.ipynb"
    notebook.write_text("{}")
    due = dt.datetime(2026, 1, 1, tzinfo=dt.timezone.utc)
    (tmp_path / "timestamp.txt").write_text(nbgrader_timestamp(due + dt.timedelta(hours=5)))
    complete(graded, Job("ann", "01_a", notebook), "lecture8", Deadline(due, parse_policy("100%")))
    assert graded.late_seconds == 5 * 3600 and graded.penalty == 4.0 and graded.score == 0.0
    graded.penalty = 1.0  # and a partial penalty, shown the same way everywhere
    assert re.search(r"^ann .*\b3/10L\s+3/10$", summary_table([graded]), re.M), summary_table([graded])
    seen = gradescope_json([graded])
    late = [t for t in seen["tests"] if t["name"].endswith("late submission")]
    assert seen["score"] == 3.0 and len(late) == 1 and late[0]["score"] == -1.0
    assert re.search(r"Total[^0-9]*3\b", feedback_html("ann", [graded], "lecture8"))


def test_tasks_sort_by_number_not_by_text():
    """Task 1.10 comes after 1.9 and 10.1 after 9.2 (as text they would not)."""
    from autograder.results import task_key

    assert sorted(["1.10", "10.1", "1.9", "9.2", "1.2"], key=task_key) == ["1.2", "1.9", "1.10", "9.2", "10.1"]


def test_a_notebook_is_not_submitted_only_when_every_test_says_so():
    """One test "not submitted" among graded ones (a merged result) is not a missing notebook."""
    from autograder.results import NOT_SUBMITTED, NotebookResult, TestResult

    def t(reason):
        return TestResult("test_x", "x", "1.1", 1.0, 0.0, "failed", "", reason)

    assert NotebookResult("ann", "01_a", [t(NOT_SUBMITTED), t(NOT_SUBMITTED)]).not_submitted
    assert not NotebookResult("ann", "01_a", [t(NOT_SUBMITTED), t("raised")]).not_submitted
    assert not NotebookResult("ann", "01_a", []).not_submitted


def test_a_notebook_error_stands_for_its_tests_only_when_every_test_says_it():
    """A notebook-wide error said by every test is said once; when some tests were graded, their
    own messages still show (mutation audit: any() for all() survived)."""
    from autograder.export.report import feedback_html

    graded, _ = _results()
    graded.error = "grading this notebook took too long and was stopped"
    for t in graded.tests[1:]:
        t.message = graded.error
    page = feedback_html("ann", [graded], "lecture8")
    assert "call reset_grad first" in page and page.count(graded.error) >= 1


def test_a_notebooks_feedback_opens_on_it_headed_with_the_students_name():
    """nbgrader delivers one page per notebook: 02_b's opens on 02_b (it said 01_a before), the
    other notebooks follow in their order; the name nbgrader knows heads it, escaped."""
    from autograder.export.report import feedback_html

    graded, missing = _results()
    third = _as_notebook(graded, "03_c")
    plain = feedback_html("ann", [graded, missing, third], "lecture8")
    assert re.findall(r"<h2 id='([^']+)'>", plain) == ["01_a", "02_b", "03_c"] and "<h1>Feedback for ann</h1>" in plain
    page = feedback_html("ann", [graded, missing, third], "lecture8", name="Ann <Lee>", opened="02_b")
    assert re.findall(r"<h2 id='([^']+)'>", page) == ["02_b", "01_a", "03_c"]
    assert "<h1>Feedback for Ann &lt;Lee&gt; (ann)</h1>" in page and "<title>Feedback for Ann &lt;Lee&gt; (ann)</title>" in page
    assert page.count("What to fix first") == plain.count("What to fix first")  # the same content, reordered
    assert "02_b first" in page and "first;" not in plain
    assert feedback_html("ann", [graded], "lecture8", opened="01_a").count("first;") == 0  # one notebook: nothing to say


def _as_notebook(result, notebook: str):
    from dataclasses import replace

    return replace(result, notebook=notebook, tests=list(result.tests))


def test_gradescope_shows_every_string_as_plain_text():
    """An upload's file name is quoted in results.json's output, and the student chose it: Gradescope
    is told to show the output, the tests' outputs and their names as text, not HTML (red team, round 9)."""
    from autograder.export.report import gradescope_json

    graded, missing = _results()
    data = gradescope_json([graded, missing])
    assert (data["output_format"], data["test_output_format"], data["test_name_format"]) == ("text", "text", "text")


def test_a_line_of_a_course_cell_is_never_quoted_as_the_students():
    from autograder.grade.hints import explain

    cells = ["import numpy as np\nimport needle as ndl\n", "def f(t):\n    return t.op.inputs\n"]
    info = {"cause": "module_unavailable", "detail": "needle", "where": [0, 2]}
    shown = explain("ModuleNotFoundError", info, cells, course_cells=frozenset({0}))
    assert "import needle" not in shown and "while no line of yours was running" in shown, shown
    assert "import needle" in explain("ModuleNotFoundError", info, cells)  # (not a course cell: quoted)


def test_spreadsheet_quoting_tells_every_two_texts_apart():
    """cell quotes a formula's first character and a leading quote alike: "=x" and "'=x" stay two
    students (the LMS export wrote both as "'=x", red team round 9); uncell gives each back."""
    from autograder.csvcells import cell as _cell, uncell as _uncell

    texts = ["=x", "'=x", "''=x", "'x", "x", "-1", "'", "", "@a", "\tb"]
    cells = [_cell(t) for t in texts]
    assert len(set(cells)) == len(texts) and [_uncell(c) for c in cells] == texts
    assert all(c[:1] not in ("=", "+", "-", "@", "\t", "\r") for c in cells)


def test_the_summary_names_a_student_as_their_folder_is():
    """Class audit (issue 46): josé read as escaped-<hash> in grade's table; now by name, the
    reports' id beside it, escape sequences in a name neutralised."""
    from autograder.export.summary import late_lines, summary_table

    graded, _ = _results()
    josé = type(graded)("escaped-0123456789ab", "01_a", list(graded.tests), assignment="lecture8", late_seconds=60.0)
    bold = type(graded)("escaped-ba9876543210", "01_a", list(graded.tests), assignment="lecture8")
    names = {"escaped-0123456789ab": "josé", "escaped-ba9876543210": "\x1b[1mbold"}
    table = summary_table([graded, josé, bold], names)
    assert "josé (escaped-0123456789ab)" in table and "?[1mbold (escaped-ba9876543210)" in table and "\x1b" not in table
    assert late_lines([josé], names) == ["late josé (escaped-0123456789ab): 01_a 1 min after the due date (no points taken)"]


def test_the_students_servers_stop_idle_kernels_and_answer_ctrl_c_at_once():
    """deploy/jupyterhub/student/jupyter_server_config.py (every student server and make lab)."""
    from traitlets.config.loader import PyFileConfigLoader

    folder = Path(__file__).resolve().parents[1] / "deploy" / "jupyterhub" / "student"
    config = PyFileConfigLoader("jupyter_server_config.py", path=str(folder)).load_config()
    kernels = config.MappingKernelManager
    assert kernels.cull_idle_timeout == 3600 and kernels.cull_connected is True and kernels.cull_interval > 0
    assert config.ServerApp.answer_yes is True
    assert config.ServerApp.jpserver_extensions == {"nbgrader.server_extensions.formgrader": False}
    settings = json.loads((Path(config.LabApp.app_settings_dir) / "overrides.json").read_text())
    assert settings["@jupyterlab/apputils-extension:notification"]["fetchNews"] == "false"
    assert settings["@jupyterlab/notebook-extension:tracker"]["recordTiming"] is True
