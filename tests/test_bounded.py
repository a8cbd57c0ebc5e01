"""The trusted side's own work on a submission's code is bounded, and blame follows what ran
(issue 45, items 3 and 4): reading and reviewing a large notebook's code runs in a child with a
CPU and memory budget, over which the code is the student's, too large to grade; and whatever
happens after the worker starts on the student's code (compiling included) is the submission's.
The real command line on a 13 MB notebook is in test_grader.py."""
import time

import pytest

from autograder import notebook as nbmod
from autograder.grade import bounded
from autograder.grade.session import Session, SessionConfig
from autograder.grade.zygote_client import ZygoteLauncher
from test_autograder_units import PROBES, zygote  # noqa: F401 - the session tests' probe and zygote fixture

SMALL = bounded.LARGE_CODE  # at or below: the work runs here
LARGE = bounded.LARGE_CODE + 1  # above: in a bounded child


def spin() -> None:
    while True:
        pass


def hoard() -> list:
    return [bytearray(1 << 20) for _ in range(8 * 1024)]  # 8 GB: over the child's address space


def pid_of_worker() -> int:
    import os

    return os.getpid()


def test_small_code_is_read_here_without_a_process():
    import os

    assert bounded.within_budget(SMALL, pid_of_worker) == os.getpid()


@pytest.mark.forks  # the bounded child is a fork of this process
def test_large_code_is_read_in_a_child_and_its_result_comes_back():
    import os

    assert bounded.within_budget(LARGE, pid_of_worker) != os.getpid()
    assert bounded.within_budget(LARGE, sorted, [3, 1, 2]) == [1, 2, 3]


@pytest.mark.forks  # the bounded child is a fork of this process
def test_work_over_its_cpu_budget_is_the_codes_too_large():
    start = time.monotonic()
    with pytest.raises(nbmod.CodeTooLarge, match="too large to grade"):
        bounded.within_budget(LARGE, spin)
    assert time.monotonic() - start < 60  # stopped at its budget (4 CPU seconds), not left to run


@pytest.mark.forks  # the bounded child is a fork of this process
def test_work_over_its_memory_is_the_codes_too_large():
    with pytest.raises(nbmod.CodeTooLarge, match="too large to grade"):
        bounded.within_budget(LARGE, hoard)


@pytest.mark.forks  # the bounded child is a fork of this process
def test_the_syntax_cap_raised_in_the_child_keeps_its_message():
    cells = ["DATA = [" + "1, " * (nbmod.MAX_AST_NODES + 1) + "]"]
    with pytest.raises(nbmod.CodeTooLarge, match="syntax-tree nodes"):
        bounded.within_budget(LARGE, nbmod.check_syntax_size, cells)
    nbmod.check_syntax_size(["def f(x):\n    return [1, 2, 3]\n"])  # an honest cell passes


@pytest.mark.forks  # the bounded child is a fork of this process
def test_an_error_of_the_graders_own_in_the_child_is_not_the_students():
    with pytest.raises(RuntimeError, match="ZeroDivisionError"):
        bounded.within_budget(LARGE, divmod, 1, 0)


def test_a_notebook_over_the_total_code_cap_is_refused_before_parsing(tmp_path):
    import json

    cell = {"cell_type": "code", "metadata": {}, "outputs": [], "execution_count": None,
            "source": "X = [" + "1, " * 80_000 + "]\n"}  # 240 KB: under the cell's cap
    path = tmp_path / "big.ipynb"
    path.write_text(json.dumps({"nbformat": 4, "nbformat_minor": 5, "metadata": {}, "cells": [cell] * 5}))
    with pytest.raises(nbmod.CodeTooLarge, match="KB a notebook may hold"):
        nbmod.read_notebook(path)


def test_a_cell_too_slow_to_compile_is_the_cells_not_the_graders(zygote):
    """The worker compiles each cell after naming it: a compile over the cell's budget skips
    that cell, as a cell that hangs when run does; it was compiled before the worker said ready,
    and counted as the grader's failure to start a worker."""
    slow = "DATA = [" + ", ".join(str(i) for i in range(150_000)) + "]"  # about half a second to compile
    session = Session(SessionConfig(["def f(x): return -x", slow], PROBES, load_timeout=0.1), ZygoteLauncher(zygote.path))
    try:
        assert session.call("call", {"x": 3}, 5).value == -3
        assert session.skip == {1}
    finally:
        session.close()


@pytest.mark.forks  # the bounded child is a fork of this process
def test_a_notebook_over_the_syntax_cap_is_graded_zero_as_the_students(tmp_path):
    """Four added cells of 250 KB of literals (1 MB, under the notebook's cap in characters) parse
    into more syntax-tree nodes than the grader reads: counted in the bounded child, every task
    scores 0 with the too-large message, and the notebook is not the grader's failure (no worker
    was ever asked for: the zygote named here does not exist)."""
    import nbformat

    from autograder.grade.batch import INFRASTRUCTURE
    from autograder.grade.runner import grade_notebook
    from conftest import LECTURE8

    notebook = LECTURE8.notebooks()[0]
    nb = nbformat.read(LECTURE8.source_notebook(notebook), 4)
    literal = ", ".join(str(i % 1000) for i in range(50_000))  # 250 KB
    nb.cells += [nbformat.v4.new_code_cell(f"DATA_{k} = [{literal}]\n") for k in range(4)]
    nbformat.write(nb, tmp_path / f"{notebook}.ipynb")
    result = grade_notebook("s", tmp_path / f"{notebook}.ipynb", LECTURE8, notebook, 3.0, str(tmp_path / "no-zygote"))
    assert result.tests and result.score == 0 and not result.error.startswith(INFRASTRUCTURE)
    assert all("too large to grade: it parses into over 200,000 syntax-tree nodes" in t.message for t in result.tests)
