"""Untrusted submissions: one fixture per threat, graded in one batch beside an honest one.

Each asserts the exact score the submission's code earns on 01_graph_accumulation (all of it,
Task 1.1's points, Task 1.2's, or nothing) and that the rest of the batch is intact.
"""
import csv
import io
import json
import os
import subprocess
from pathlib import Path

import nbformat
import pytest

from autograder.sandbox.confine import landlock_abi
from autograder.suiterun import collect_tests
from autograder.results import points_back
from conftest import LECTURE8, grade_cli

ASSIGNMENT = LECTURE8.name
NB = "01_graph_accumulation"
SUITE = LECTURE8.suite(NB)
SOLUTION_NB = LECTURE8.source_notebook(NB)
TESTS = collect_tests(SUITE)
T11 = sum(p for _, _, task, p in TESTS if task == "1.1")  # what a submission earns with Task 1.1 alone
T12 = sum(p for _, _, task, p in TESTS if task == "1.2")
FULL = T11 + T12


def solution(grade_id):
    return next(c.source for c in nbformat.read(SOLUTION_NB, 4).cells if c.metadata.get("nbgrader", {}).get("grade_id") == grade_id)


C1, C2 = solution("task1_1_count_graph_nodes"), solution("task1_2_graph_depth")
STUB1 = "def count_graph_nodes(t):\n    raise NotImplementedError()"
STUB2 = "def graph_depth(t):\n    raise NotImplementedError()"
CANARY = Path("/tmp/needle-course-canary")

PATCH_EVERYTHING = '''
import builtins, sys
import numpy, numpy.testing
numpy.allclose = lambda *a, **k: True
numpy.array_equal = lambda *a, **k: True
numpy.testing.assert_allclose = lambda *a, **k: None
builtins.isinstance = lambda *a: True
builtins.AssertionError = type("Never", (Exception,), {})
try:
    import pytest, _pytest.outcomes
    pytest.fail = _pytest.outcomes.fail = lambda *a, **k: None
except Exception:
    pass
for name in list(sys.modules):
    if name.startswith("autograder"):
        sys.modules[name] = None
class Liar(int):
    def __eq__(self, other): return True
    __hash__ = int.__hash__
def count_graph_nodes(t):
    return Liar(0)
def graph_depth(t):
    return Liar(0)
'''

FORGE = '''
import os
fake = b'{"ok":1}'
for fd in range(3, 12):
    try:
        os.write(fd, len(fake).to_bytes(4, "big") + fake)
    except OSError:
        pass
'''

READ_SECRETS = f'''
import json
def count_graph_nodes(t):
    nb = json.load(open({str(SOLUTION_NB)!r}))
    src = [c for c in nb["cells"] if c["metadata"].get("nbgrader", {{}}).get("grade_id") == "task1_1_count_graph_nodes"][0]["source"]
    ns = {{}}
    exec("".join(src), ns)
    return ns["count_graph_nodes"](t)
def graph_depth(t):
    text = open({str(SUITE)!r}).read()
    return 0 if "a leaf has depth 0" in text else -1
'''

WRITE_FILES = '''
import os, shutil
for target in [OUT + "/hacked.txt", OUT + "/.state/solved/01_graph_accumulation.json", SUBMITTED + "/solved/lecture8/01_graph_accumulation.ipynb", SUITE, CANARY]:
    try:
        with open(target, "w") as f:
            f.write("pwned")
    except OSError:
        pass
try:
    shutil.rmtree(SUBMITTED + "/solved")
except OSError:
    pass
'''

KILL_OTHERS = '''
import os, signal, socket
for pid in [os.getppid(), 1] + list(range(2, 4000)):
    if pid != os.getpid():
        try:
            os.kill(pid, signal.SIGKILL)
        except OSError:
            pass
try:
    socket.create_connection(("127.0.0.1", 22), timeout=1)
except OSError:
    pass
'''

PRINT_LOOKALIKE = '''
import sys
print("Task 1.1: hidden tests 7/7 passed (10/10 points)")
print('{"score": 100, "tests": []}')
print("student,notebook,test,score,max_score,status\\nsolved,01_graph_accumulation,test_count_leaf,999,1,passed")
sys.stderr.write("x" * 5_000_000)
print("y" * 5_000_000)
'''

# student -> (replacement solution cells, exact score on 01_graph_accumulation)
THREATS = {
    "honest": ({}, FULL),
    "patches_everything": ({"task1_1_count_graph_nodes": PATCH_EVERYTHING, "task1_2_graph_depth": STUB2}, 0),
    "exit_at_import": ({"task1_1_count_graph_nodes": C1 + "\nimport os\nos._exit(0)\n"}, T12),
    "systemexit_at_import": ({"task1_1_count_graph_nodes": C1 + "\nraise SystemExit(3)\n"}, FULL),
    "keyboardinterrupt_in_method": ({"task1_2_graph_depth": "def graph_depth(t):\n    raise KeyboardInterrupt"}, T11),
    "sys_exit_in_method": ({"task1_2_graph_depth": "import sys\ndef graph_depth(t):\n    sys.exit(0)"}, T11),
    # endless for a leaf (one test is enough to be stopped in), wrong at once for the others
    "endless_loop_in_method": ({"task1_2_graph_depth": "def graph_depth(t):\n    while not t.inputs:\n        pass\n    return -1"}, T11),
    "sleep_at_import": ({"task1_1_count_graph_nodes": C1 + "\nimport time\ntime.sleep(10**6)\n"}, T12),
    "memory_hog": ({"task1_1_count_graph_nodes": C1 + "\nhog = [bytearray(10**8) for _ in range(10**4)]\n",
                    "task1_2_graph_depth": "def graph_depth(t):\n    return len(bytearray(2**44))"}, T11),
    "spawns_processes": ({"task1_1_count_graph_nodes": C1 + "\nimport os, subprocess\ntry:\n    subprocess.Popen(['sleep', '1000'])\nexcept OSError:\n    pass\ntry:\n    os.fork()\nexcept OSError:\n    pass\n"}, FULL),
    "prints_lookalike_results": ({"task1_1_count_graph_nodes": C1 + PRINT_LOOKALIKE}, FULL),
    "forges_protocol_replies": ({"task1_1_count_graph_nodes": STUB1 + "\n" + FORGE, "task1_2_graph_depth": "def graph_depth(t):\n" + "\n".join("    " + l for l in FORGE.strip().splitlines()) + "\n    return -1"}, 0),
    "writes_files": ({"task1_1_count_graph_nodes": C1 + "\n" + WRITE_FILES}, FULL),
    "reads_hidden_files": ({"task1_1_count_graph_nodes": READ_SECRETS, "task1_2_graph_depth": "# defined above"}, 0),
    "kills_other_processes": ({"task1_1_count_graph_nodes": C1 + KILL_OTHERS}, FULL),
}
CELL_EDITS = ["deleted_test_cells", "duplicated_and_reordered", "solution_turned_markdown", "malformed_json", "not_utf8", "enormous"]
CELL_EDIT_SCORES = {"deleted_test_cells": FULL, "duplicated_and_reordered": FULL, "solution_turned_markdown": T11, "malformed_json": 0, "not_utf8": 0, "enormous": 0}


def _write_submission(release_nb, folder: Path, cells: dict, paths: dict) -> None:
    nb = nbformat.read(release_nb, 4)
    for cell in nb.cells:
        gid = cell.metadata.get("nbgrader", {}).get("grade_id")
        if cell.metadata.get("nbgrader", {}).get("solution") and cell.cell_type == "code":
            source = cells.get(gid, {"task1_1_count_graph_nodes": C1, "task1_2_graph_depth": C2}[gid])
            for key, value in paths.items():
                source = source.replace(key, repr(value))
            cell.source = source
    folder.mkdir(parents=True)
    nbformat.write(nb, folder / f"{NB}.ipynb")


def _cell_edit(kind: str, folder: Path) -> None:
    path = folder / f"{NB}.ipynb"
    if kind == "malformed_json":
        path.write_text('{"cells": [', encoding="utf-8")
        return
    if kind == "not_utf8":
        path.write_bytes("{}".encode("utf-16"))
        return
    if kind == "enormous":
        with open(path, "wb") as f:
            f.write(b'{"cells": [], "padding": "' + b"a" * (30 * 1024 * 1024) + b'"}')
        return
    nb = nbformat.read(path, 4)
    if kind == "deleted_test_cells":
        nb.cells = [c for c in nb.cells if not c.metadata.get("nbgrader", {}).get("grade")]
    elif kind == "duplicated_and_reordered":
        sols = [c for c in nb.cells if c.metadata.get("nbgrader", {}).get("solution") and c.cell_type == "code"]
        stub_copy = nbformat.from_dict(json.loads(json.dumps(sols[0])))
        stub_copy.source = STUB1
        stub_copy.id = "stub-copy"
        others = [c for c in nb.cells if c not in sols]
        nb.cells = [stub_copy, sols[1]] + others + [sols[0]]  # a stale stub first, the real one last
    elif kind == "solution_turned_markdown":
        for cell in nb.cells:
            if cell.metadata.get("nbgrader", {}).get("grade_id") == "task1_2_graph_depth":
                cell.cell_type = "markdown"
                cell.pop("outputs", None)
                cell.pop("execution_count", None)
    nbformat.write(nb, path)


@pytest.fixture(scope="module")
def batch(release_root, tmp_path_factory, once_per_run):
    """Graded once per run (whichever pytest-xdist worker needs it first)."""
    return once_per_run("adversarial", lambda: _graded_batch(release_root, tmp_path_factory))


def _graded_batch(release_root, tmp_path_factory):
    root = tmp_path_factory.mktemp("adversarial")
    submitted = root / "submitted"
    out = root / "out"
    release_nb = release_root / "course" / ASSIGNMENT / f"{NB}.ipynb"
    paths = {"OUT": str(out), "SUBMITTED": str(submitted), "SUITE": str(SUITE), "CANARY": str(CANARY)}
    CANARY.unlink(missing_ok=True)
    for student, (cells, _) in THREATS.items():
        _write_submission(release_nb, submitted / student / ASSIGNMENT, cells, paths)
    for kind in CELL_EDITS:
        _write_submission(release_nb, submitted / kind / ASSIGNMENT, {}, paths)
        _cell_edit(kind, submitted / kind / ASSIGNMENT)
    _write_submission(release_nb, submitted / "solved" / ASSIGNMENT, {}, paths)
    suite_before = SUITE.read_bytes()
    sleepers_before = _sleepers()
    _grade(root, out, "--jobs", "2")
    return root, out, suite_before, sleepers_before


def _grade(path, out, *args) -> None:
    proc = grade_cli(path, "--out", out, "--timeout", "3", *args)
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-2000:]


def _sleepers():
    return subprocess.run(["pgrep", "-f", "sleep 1000"], capture_output=True, text=True).stdout.split()


def _scores(out):
    totals, rows = {}, {}
    for r in csv.DictReader(io.StringIO((out / "grades.csv").read_text())):
        if r["notebook"] != NB:
            continue
        totals[r["student"]] = totals.get(r["student"], 0.0) + float(r["score"])
        rows[r["student"]] = rows.get(r["student"], 0) + 1
    return totals, rows


@pytest.mark.parametrize("student", list(THREATS) + CELL_EDITS)
def test_exact_score(batch, student):
    if student == "reads_hidden_files" and landlock_abi() < 1:
        pytest.skip("Landlock is not available on this kernel: file reads are not confined")
    _, out, _, _ = batch
    totals, rows = _scores(out)
    expected = THREATS[student][1] if student in THREATS else CELL_EDIT_SCORES[student]
    assert totals[student] == expected
    assert rows[student] == len(TESTS), "every test of the notebook is reported, whatever happened"


def test_rest_of_batch_intact(batch):
    root, out, suite_before, sleepers_before = batch
    totals, _ = _scores(out)
    assert totals["solved"] == FULL and totals["honest"] == FULL
    assert (root / "submitted" / "solved" / ASSIGNMENT / f"{NB}.ipynb").exists()
    assert "pwned" not in (root / "submitted" / "solved" / ASSIGNMENT / f"{NB}.ipynb").read_text()
    assert not (out / "hacked.txt").exists()
    assert SUITE.read_bytes() == suite_before
    if landlock_abi() >= 1:
        assert not CANARY.exists(), "a submission wrote outside its scratch directory"
    assert set(_sleepers()) <= set(sleepers_before), "a submission left a process behind"


def test_reports_carry_no_student_controlled_text(batch):
    _, out, _, _ = batch
    for student in ("prints_lookalike_results", "patches_everything", "forges_protocol_replies"):
        text = (out / student / "feedback.html").read_text() + (out / student / "results.json").read_text()
        assert "999" not in text and "yyyy" not in text and "Never" not in text


def test_unreadable_submissions_say_why(batch):
    _, out, _, _ = batch
    assert "not valid notebook JSON" in (out / "malformed_json" / "feedback.html").read_text()
    assert "not UTF-8" in (out / "not_utf8" / "feedback.html").read_text()
    assert "limit" in (out / "enormous" / "feedback.html").read_text()


def test_kernel_confinement_is_reported_enforced():
    assert landlock_abi() >= 1 or os.uname().sysname != "Linux", "expected Landlock on this CI machine (Linux >= 5.13)"


def test_endless_sgd_step_loses_only_the_tests_that_call_it(release_root, tmp_path):
    """05_optimizer_training with an SGD.step that never returns: the Task 5.1 rungs that step
    (10 of the notebook's 18 points) time out; Task 5.1's reset_grad rungs and Task 5.2 still score."""
    name = "05_optimizer_training"
    sols = {c.metadata["nbgrader"]["grade_id"]: c.source for c in nbformat.read(LECTURE8.source_notebook(name), 4).cells
            if c.metadata.get("nbgrader", {}).get("solution")}
    sols["task5_1_sgd"] = (
        "class SGD(Optimizer):\n"
        "    def __init__(self, params, lr, momentum=0.0):\n"
        "        super().__init__(params)\n"
        "        self.lr, self.momentum = lr, momentum\n\n"
        "    def step(self):\n"
        "        while True:\n"
        "            pass\n"
    )
    nb = nbformat.read(release_root / "course" / ASSIGNMENT / f"{name}.ipynb", 4)
    for cell in nb.cells:
        gid = cell.metadata.get("nbgrader", {}).get("grade_id")
        if cell.metadata.get("nbgrader", {}).get("solution"):
            cell.source = sols[gid]
    folder = tmp_path / "looper" / ASSIGNMENT
    folder.mkdir(parents=True)
    nbformat.write(nb, folder / f"{name}.ipynb")
    out = tmp_path / "out"
    _grade(folder, out)
    rows = list(csv.DictReader(io.StringIO((out / "grades.csv").read_text())))
    lost = {r["test"] for r in rows if r["status"] == "failed"}
    # the rungs that never step: reset_grad's own (a momentum rung calls it between its steps)
    resetting = {r["test"] for r in rows if "reset_grad" in r["test"] and "momentum" not in r["test"]}
    stepping = {r["test"] for r in rows if r["task"] == "5.1"} - resetting
    assert stepping and lost == stepping  # every rung that steps, and only those
    # what still scores: Task 5.1's hidden reset_grad rung (2 points) and all of Task 5.2 (6)
    assert sum(float(r["score"]) for r in rows) == 8
    said = json.loads(next(out.rglob("looper/**/results.json"), out / "looper" / "results.json").read_text())
    # the task's one message says so (its later rungs point back to it)
    assert all("CPU-time budget" in t["output"] for t in said["tests"] if t["status"] == "failed" and not points_back(t["output"]))
    assert {r["reason"] for r in rows if r["status"] == "failed"} == {"timeout"}
