"""The batch survives the grader's own failures: a process that cannot be started is retried
and then reported for that notebook alone; a result that cannot be written is reported without
losing the others; the command line says so and exits 1."""
import errno
import multiprocessing
import shutil
import signal

import pytest

from autograder import cli
from autograder import store
from autograder.export.report import write_reports
from autograder.export.summary import describe
from autograder.grade import batch
from autograder.grade.grading import grade_jobs
from autograder.submissions import Job
from autograder.suiterun import collect_tests
from conftest import LECTURE8

# These grade in this process with the batch monkeypatched: they fork it (make test runs them serially).
pytestmark = pytest.mark.forks

NB = "01_graph_accumulation"
FORK = multiprocessing.get_context("fork")  # the real one, before a test replaces get_context


def full_marks() -> float:
    return sum(p for *_, p in collect_tests(LECTURE8.suite(NB)))


@pytest.fixture
def solved(tmp_path):
    """One solved notebook per student, for three students."""
    jobs = []
    for student in ("ann", "bob", "cid"):
        folder = tmp_path / "in" / student
        folder.mkdir(parents=True)
        shutil.copy(LECTURE8.source_notebook(NB), folder / f"{NB}.ipynb")
        jobs.append(Job(student, NB, folder / f"{NB}.ipynb"))
    return jobs


class FlakyContext:
    """multiprocessing's fork context whose Process.start fails with EAGAIN ``failures`` times."""

    def __init__(self, failures):
        self.real = FORK
        self.failures = failures

    def Pipe(self, *a, **k):
        return self.real.Pipe(*a, **k)

    def Process(self, *a, **k):
        proc = self.real.Process(*a, **k)
        context = self

        class Flaky:
            pid = property(lambda _: proc.pid)

            def start(self):
                if context.failures > 0:
                    context.failures -= 1
                    raise OSError(errno.EAGAIN, "Resource temporarily unavailable")
                proc.start()

            def join(self, *a):
                proc.join(*a)

        return Flaky()


def test_a_process_that_cannot_start_is_retried(solved, tmp_path, monkeypatch):
    monkeypatch.setattr(batch.multiprocessing, "get_context", lambda kind: FlakyContext(failures=2))
    run = grade_jobs(LECTURE8, solved, tmp_path / "out", jobs=2, timeout=10.0, progress=False)
    assert [r.score for r in run.results] == [full_marks()] * 3 and not run.unsaved


def test_a_process_that_never_starts_costs_its_notebook_only(solved, tmp_path, monkeypatch):
    monkeypatch.setattr(batch.multiprocessing, "get_context", lambda kind: FlakyContext(failures=10**6))
    monkeypatch.setattr(batch.time, "sleep", lambda s: None)
    run = grade_jobs(LECTURE8, solved, tmp_path / "out", jobs=2, timeout=10.0, progress=False)
    assert len(run.results) == 3 and all(r.score == 0 for r in run.results)
    for r in run.results:
        assert r.error.startswith("internal grading error") and "tried 3 times" in r.error
    assert sorted((tmp_path / "out" / ".state" / LECTURE8.name).glob("*/*.json"))  # kept, as any result
    # the summary says they were not graded (the command exits 1, and --gradebook keeps their grades)
    shown = describe(run.results, tmp_path / "out", unsaved=run.unsaved, ungraded=run.ungraded)
    assert len(run.ungraded) == 3 and "NOT GRADED (an error of the grader's own" in shown


@pytest.mark.parametrize("limit", [1024, 300])
def test_grading_works_under_an_ordinary_open_files_limit(solved, tmp_path, limit):
    """The zygote kept the library paths open from descriptor 2000 up: under the open-files limit
    of 1024 that ordinary users get (and that PAM gives nobody), every notebook scored 0 with an
    error of the grader's own, and the command exited 0 (class audit). Full marks, exit 0."""
    import resource
    import subprocess
    import sys

    from conftest import venv_env

    def limited():
        resource.setrlimit(resource.RLIMIT_NOFILE, (limit, limit))

    proc = subprocess.run([sys.executable, "-m", "autograder", "grade", str(solved[0].path), "--out", str(tmp_path / "out")],
                          capture_output=True, text=True, env=venv_env(), preexec_fn=limited, cwd=LECTURE8.course.root)
    assert proc.returncode == 0, proc.stdout[-1500:] + proc.stderr[-1500:]
    assert f"{full_marks():g}/{full_marks():g}" in proc.stdout


def test_an_infrastructure_error_is_retried(solved, tmp_path, monkeypatch):
    real, marks = batch.grade_notebook, tmp_path / "attempts"
    marks.mkdir()

    def once_broken(student, *args, **kwargs):  # runs in the grading process: count with files
        attempt = len(list(marks.glob(f"{student}-*"))) + 1
        (marks / f"{student}-{attempt}").touch()
        if attempt == 1:
            raise RuntimeError("the sandbox zygote is not answering")
        return real(student, *args, **kwargs)

    monkeypatch.setattr(batch, "grade_notebook", once_broken)
    run = grade_jobs(LECTURE8, solved, tmp_path / "out", jobs=1, timeout=10.0, progress=False)
    assert [r.score for r in run.results] == [full_marks()] * 3
    assert sorted(p.name for p in marks.iterdir()) == ["ann-1", "ann-2", "bob-1", "bob-2", "cid-1", "cid-2"]


def test_a_result_that_cannot_be_written_loses_no_other(solved, tmp_path, monkeypatch, capsys):
    real = store.save_result

    def disk_full_for_bob(out, result):
        if result.student == "bob":
            raise OSError(errno.ENOSPC, "No space left on device")
        real(out, result)

    monkeypatch.setattr(store, "save_result", disk_full_for_bob)
    folder = solved[0].path.parent.parent
    assert cli.main(["grade", str(folder / "ann"), "--out", str(tmp_path / "out")]) == 0
    run = grade_jobs(LECTURE8, solved, tmp_path / "out", jobs=2, timeout=10.0, progress=False)
    assert run.unsaved == [f"bob/{NB}"]
    assert {r.student for r in run.results} == {"ann", "cid"}
    assert "could not save the result of bob" in capsys.readouterr().err
    write_reports(tmp_path / "out")  # the caller's, from the store
    text = (tmp_path / "out" / "grades.csv").read_text()
    assert "ann," in text and "cid," in text and "bob," not in text


def test_the_command_line_exits_1_when_a_result_was_not_saved(solved, tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(store, "save_result", lambda out, result: (_ for _ in ()).throw(OSError(errno.ENOSPC, "full")))
    folder = solved[1].path.parent
    before = signal.getsignal(signal.SIGTERM)
    assert cli.main(["grade", str(folder), "--out", str(tmp_path / "out")]) == 1
    # the grader's SIGTERM handler is its own: this process's forks (a pool) must not inherit it
    assert signal.getsignal(signal.SIGTERM) is before
    assert "NOT SAVED" in capsys.readouterr().out


def test_bad_out_and_stray_entries_are_said_before_grading(solved, tmp_path, capsys):
    """Class audit: --out naming a file graded everything, then failed every save with exit 1;
    a folder without the assignment's folder and a renamed notebook were skipped without a word."""
    from autograder.submissions import discover

    (tmp_path / "file").write_text("x")
    assert cli.main(["grade", str(solved[0].path), "--out", str(tmp_path / "file")]) == 2
    assert "--out" in capsys.readouterr().err
    root = tmp_path / "root" / "submitted"
    (root / "flat").mkdir(parents=True)
    (root / "ann" / LECTURE8.name).mkdir(parents=True)
    shutil.copy(LECTURE8.source_notebook(NB), root / "ann" / LECTURE8.name / f"{NB} (1).ipynb")
    shutil.copy(LECTURE8.source_notebook(NB), root / "ann" / LECTURE8.name / "scratch.ipynb")
    jobs = discover(tmp_path / "root", LECTURE8)
    err = capsys.readouterr().err
    assert "'flat' in" in err and "has no lecture8/ folder: not graded" in err
    # a renamed copy is graded as its notebook, as on Gradescope (test_renamed_notebooks.py), and said
    assert f"'ann': '{NB} (1).ipynb' was graded as {NB}.ipynb." in err
    assert "'ann': Not a notebook of this assignment, not graded: 'scratch.ipynb'" in err
    assert {j.student for j in jobs} == {"ann"} and [j.notebook for j in jobs if j.path is not None] == [NB]


def test_the_longest_notebooks_are_started_first():
    """A notebook not graded yet goes first (to learn its time), then the one whose gradings took
    longest on average: the short ones fill the workers at the end, while the last long one runs.
    Among equals, the order queued; a retry queues again behind its notebook's other jobs."""
    pending = batch.Pending((Job(s, nb, None), 1) for s, nb in (("ann", "fast"), ("ann", "slow"), ("bob", "fast"),
                                                                 ("ann", "new"), ("bob", "slow"), ("ann", "other")))
    pending.took("fast", 1.0)
    pending.took("fast", 0.0)  # 0.5 s each
    pending.took("slow", 3.0)
    order = []
    while pending:
        job, tries = pending.pop()
        order.append((job.student, job.notebook, tries))
        if (job.student, job.notebook, tries) == ("ann", "slow", 1):
            pending.append((job, 2))
    assert order == [("ann", "new", 1), ("ann", "other", 1), ("ann", "slow", 1), ("bob", "slow", 1), ("ann", "slow", 2),
                     ("ann", "fast", 1), ("bob", "fast", 1)]
