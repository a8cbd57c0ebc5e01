"""`grade --scheduler` on a Dask cluster started here (distributed's LocalCluster: a scheduler in
this process, one worker process on 127.0.0.1), against local grading. The cluster runs with a
real scheduler, workers and kills are in tests/e2e/test_cluster_e2e.py (make test-cluster)."""
import csv
import importlib.util
import shutil
import socket

import pytest

from autograder import cli, demo
from conftest import LECTURE8, course_copy, grade_cli

pytestmark = pytest.mark.cluster
HAVE_DISTRIBUTED = importlib.util.find_spec("distributed") is not None
needs_distributed = pytest.mark.skipif(not HAVE_DISTRIBUTED, reason='the cluster extra is not installed: pip install -e ".[cluster]"')
ASSIGNMENT = LECTURE8.name


@pytest.mark.skipif(HAVE_DISTRIBUTED, reason="distributed is installed")
def test_scheduler_without_the_cluster_extra_is_a_usage_error(release_root, tmp_path, capsys):
    assert cli.main(["grade", str(release_root), "--out", str(tmp_path), "--scheduler", "tcp://127.0.0.1:8786"]) == 2
    assert "pip install -e '.[cluster]'" in capsys.readouterr().err


@needs_distributed
def test_unreachable_scheduler_is_a_usage_error(release_root, tmp_path, capsys):
    with socket.socket() as s:  # a port nobody listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    student = release_root / "course" / ASSIGNMENT
    assert cli.main(["grade", str(student), "--out", str(tmp_path), "--scheduler", f"tcp://127.0.0.1:{port}"]) == 2
    assert f"cannot reach a Dask scheduler at tcp://127.0.0.1:{port}" in capsys.readouterr().err


@pytest.fixture(scope="module")
def scheduler():
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=True, host="127.0.0.1",
                                  dashboard_address="127.0.0.1:0", worker_dashboard_address="127.0.0.1:0") as cluster:
        yield cluster.scheduler_address


@pytest.fixture(scope="module")
def student(release_root, tmp_path_factory):
    """One student's folder: every notebook with the demo's mistakes, but 01 a symlink to the
    instructor's solution (refused on the client, as local grading refuses it)."""
    root = tmp_path_factory.mktemp("cluster-class")
    shutil.copytree(release_root, root, dirs_exist_ok=True)
    demo.make_submissions(LECTURE8, root, root / "course" / ASSIGNMENT, demo.DEMO_MISTAKES, say=lambda _: None)
    folder = root / "submitted" / "mistakes" / ASSIGNMENT
    first = LECTURE8.notebooks()[0]
    (folder / f"{first}.ipynb").unlink()
    (folder / f"{first}.ipynb").symlink_to(LECTURE8.source_notebook(first))
    return folder


@needs_distributed
def test_cluster_grading_writes_what_local_grading_writes(scheduler, student, tmp_path, capsys):
    local, remote = tmp_path / "local", tmp_path / "cluster"
    local_run = grade_cli(student, "--out", local, "--jobs", "2")
    assert local_run.returncode == 0, local_run.stderr[-2000:]
    assert cli.main(["grade", str(student), "--out", str(remote), "--scheduler", scheduler]) == 0
    assert "worker " in capsys.readouterr().err  # each worker machine says what isolation held there
    files = sorted(p.relative_to(local) for p in local.rglob("*") if p.is_file() and ".state" not in p.parts)
    assert [str(f) for f in files] == ["grades.csv", "mistakes/feedback.html", "mistakes/results.json"]
    for f in files:
        assert (remote / f).read_bytes() == (local / f).read_bytes(), f
    assert "symbolic link" in (remote / "mistakes" / "feedback.html").read_text()


@needs_distributed
def test_a_worker_with_other_grading_code_is_refused(scheduler, student, tmp_path, capsys, monkeypatch):
    from autograder.grade import cluster

    monkeypatch.setattr(cluster, "grading_code", lambda: "this machine's code, not the worker's")
    assert cli.main(["grade", str(student / "02_detach.ipynb"), "--out", str(tmp_path), "--scheduler", scheduler]) == 2
    assert "grades with other code than this machine" in capsys.readouterr().err


@needs_distributed
def test_a_worker_lost_while_registering_costs_a_retry_not_the_run(monkeypatch):
    """Issue 18: CommClosedError from register_plugin (a worker lost meanwhile) is retried; a
    plugin the workers cannot load is still a usage error; a cluster that never answers is a
    connection error (exit 1), not exit 2."""
    from distributed.comm.core import CommClosedError

    from autograder.grade import cluster
    from autograder.submissions import UsageProblem

    monkeypatch.setattr(cluster.time, "sleep", lambda seconds: None)

    class Flaky:
        def __init__(self, failures, error=CommClosedError):
            self.failures, self.error, self.calls = failures, error, 0

        def register_plugin(self, plugin):
            self.calls += 1
            if self.calls <= self.failures:
                raise self.error("in: worker lost")

    client = Flaky(2)
    cluster._register(client, object(), "tcp://127.0.0.1:1")
    assert client.calls == 3
    with pytest.raises(UsageProblem):
        cluster._register(Flaky(1, ModuleNotFoundError), object(), "tcp://127.0.0.1:1")
    with pytest.raises(ConnectionError):
        cluster._register(Flaky(99), object(), "tcp://127.0.0.1:1")


@needs_distributed
def test_each_version_of_a_suite_is_graded_with_its_own_tests(scheduler, tmp_path, capsys, monkeypatch):
    """A worker keeps what it has imported between runs (its forker collected the last version's
    suites): a course changed since, shipped in a folder of its own, must be graded with its own
    hidden tests, not with those of a suite of the same name collected before."""
    from autograder.course import ROOT_ENV

    nb = "02_detach"
    for version in ("v1", "v2"):
        course = course_copy(tmp_path / version).assignment(ASSIGNMENT)
        suite = course.suite(nb)
        suite.write_text(suite.read_text() + f'\n\nfrom autograder.suite import graded  # noqa: E402\n\n\n'
                         f'@graded("2.1", points=1)\ndef test_only_in_{version}():\n    """only in {version}"""\n')
        monkeypatch.setenv(ROOT_ENV, str(course.course.root))
        out = tmp_path / f"out-{version}"
        assert cli.main(["grade", str(course.source_notebook(nb)), "--out", str(out), "--scheduler", scheduler]) == 0
        with open(out / "grades.csv") as f:
            tests = {row["test"] for row in csv.DictReader(f)}
        assert {t for t in tests if t.startswith("test_only_in_")} == {f"test_only_in_{version}"}


@needs_distributed
def test_a_suite_that_cannot_be_imported_stops_the_run_before_any_worker_grades(scheduler, tmp_path, monkeypatch):
    from autograder.course import ROOT_ENV

    course = course_copy(tmp_path / "course").assignment(ASSIGNMENT)
    suite = course.suite("02_detach")
    suite.write_text("import does_not_exist\n")
    proc = grade_cli(course.source_notebook("02_detach"), "--out", tmp_path / "out", "--scheduler", scheduler,
                     **{ROOT_ENV: str(course.course.root)})
    assert proc.returncode == 2, proc.stderr[-2000:]
    assert f"the hidden suite {suite} failed to import" in proc.stderr and "Traceback" not in proc.stderr
