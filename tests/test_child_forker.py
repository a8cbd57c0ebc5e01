"""A Dask worker's grading children come from a single-threaded forker (autograder.grade.child_forker):
the forker has one thread, grades a notebook as a local batch does, survives a suite that
cannot be collected, and stops when the worker lets go of it."""
import copy
import shutil
from pathlib import Path

import pytest

from autograder.grade import batch
from autograder.grade.child_forker import ChildForker, ForkerBroken
from autograder.grade.zygote_client import ZygoteProcess as Zygote
from autograder.submissions import Job
from conftest import LECTURE8, course_copy

NB = "01_graph_accumulation"


@pytest.fixture(scope="module")
def helpers():
    zygote, forker = Zygote(), ChildForker()
    yield zygote, forker
    forker.close()
    zygote.close()


def threads_of(pid: int) -> int:
    status = Path(f"/proc/{pid}/status").read_text()
    return int(next(line.split()[1] for line in status.splitlines() if line.startswith("Threads:")))


def graded_by_forker(forker, zygote, job, assignment=LECTURE8):
    pid, deadline, conn = forker.fork(job, assignment, 10.0, zygote.path)
    try:
        assert conn.poll(deadline), "the grading child did not answer before its deadline"
        return conn.recv()
    finally:
        conn.close()


def test_the_forker_has_one_thread(helpers):
    _, forker = helpers
    assert forker.alive() and threads_of(forker.proc.pid) == 1


@pytest.mark.forks  # the batch it compares with forks this process
def test_a_notebook_graded_through_the_forker_scores_as_in_a_batch(helpers, tmp_path):
    zygote, forker = helpers
    path = tmp_path / f"{NB}.ipynb"
    shutil.copy(LECTURE8.source_notebook(NB), path)
    kind, result = graded_by_forker(forker, zygote, Job("ann", NB, path))
    assert kind == "ok" and not result.error
    local = []
    batch.run_jobs([Job("ann", NB, path)], LECTURE8, 10.0, 1, local.append)
    assert [(t.test, t.score, t.status) for t in result.tests] == [(t.test, t.score, t.status) for t in local[0].tests]
    assert sum(t.score for t in result.tests) == sum(t.points for t in result.tests) > 0


def test_a_suite_that_cannot_be_collected_costs_that_request_only(helpers, tmp_path):
    zygote, forker = helpers
    broken = course_copy(tmp_path / "course").assignment(LECTURE8.name)
    broken.suite(NB).write_text("import does_not_exist\n")
    path = tmp_path / f"{NB}.ipynb"
    shutil.copy(LECTURE8.source_notebook(NB), path)
    with pytest.raises(ForkerBroken, match="failed to import"):
        forker.fork(Job("ann", NB, path), broken, 10.0, zygote.path)
    kind, result = graded_by_forker(forker, zygote, Job("bob", NB, copy.copy(path)))  # still serving
    assert kind == "ok" and not result.error


def test_the_forker_stops_when_the_worker_closes_it():
    forker = ChildForker()
    assert forker.alive()
    forker.close()
    assert not forker.alive() and forker.proc.returncode == 0


def test_a_message_cut_short_reads_as_closed():
    import socket

    from autograder.grade.child_forker import _recv, _send

    for cut in (0, 2, 7):  # nothing, half the length, part of the message
        ours, theirs = socket.socketpair()
        whole = socket.socketpair()
        _send(whole[0], ("started", 1, 2.0))
        theirs.sendall(whole[1].recv(1024)[:cut])
        theirs.close()
        assert _recv(ours) == (None, [])
        ours.close()
        whole[0].close()
        whole[1].close()
    ours, theirs = socket.socketpair()
    _send(theirs, ("error", "x" * 50_000))  # longer than one read
    assert _recv(ours) == (("error", "x" * 50_000), [])
