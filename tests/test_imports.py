"""What student code can import while it is graded (autograder/importable.py): numpy, needle and
the standard library's common modules, whoever runs the grader. A module the grader does not
provide (matplotlib, scipy) costs only the lines that use it, as the real command line grades
it, and the in-kernel route says the same before the student submits.
"""
import json
import subprocess
import sys

import pytest

from autograder import demo, importable
from autograder.check.inkernel import check_task
from autograder.check.selfcheck import grading_cells
from autograder.results import points_back
from conftest import LECTURE8, grade_cli

NOTEBOOK = "05_optimizer_training"
TRAIN = "task5_2_train"
PLOT_IN_TRAIN = ("    return losses\n", "    plt.plot(losses)\n    return losses\n")


def _train_cells(solved: dict) -> dict[str, str]:
    train = solved[TRAIN]
    assert PLOT_IN_TRAIN[0] in train
    return {
        # an honest cell with a student's plotting and timing lines: a plot before the definition,
        # imports the grader lacks (matplotlib, scipy) and ones it has (timeit, pdb)
        "extra_imports": "import matplotlib.pyplot as plt\nimport timeit, pdb\nfrom scipy.special import logsumexp\n"
                         "fig = plt.figure()\nplt.close(fig)\n" + train,
        # the graded function itself plots: it cannot run where matplotlib is missing
        "plots_in_train": "import matplotlib.pyplot as plt\n" + train.replace(*PLOT_IN_TRAIN),
    }


@pytest.fixture(scope="module")
def graded(tmp_path_factory, release_root, once_per_run):
    return once_per_run("imports", lambda: _graded(tmp_path_factory, release_root))


def _graded(tmp_path_factory, release_root):
    import shutil

    root = tmp_path_factory.mktemp("imports")
    shutil.copytree(release_root, root, dirs_exist_ok=True)
    solved = demo.solutions_by_grade_id(LECTURE8)
    for student, cell in {"honest": solved[TRAIN], **_train_cells(solved)}.items():
        demo.submit(root / "course" / LECTURE8.name, root, LECTURE8.name, student, {**solved, TRAIN: cell})
        for notebook in (root / "submitted" / student / LECTURE8.name).glob("*.ipynb"):
            if notebook.stem != NOTEBOOK:
                notebook.unlink()
    out = root / "out"
    proc = grade_cli(root, "--out", out, "--jobs", "2")
    assert proc.returncode == 0, proc.stderr[-2000:]
    return {student: json.loads((out / student / "results.json").read_text())
            for student in ("honest", "extra_imports", "plots_in_train")}


def _score(results: dict, task: str | None = None) -> tuple[float, float]:
    tests = [t for t in results["tests"] if t["extra_data"]["notebook"] == NOTEBOOK
             and (task is None or t["extra_data"]["task"] == task)]
    return sum(t["score"] for t in tests), sum(t["max_score"] for t in tests)


def test_imports_the_grader_lacks_cost_nothing_when_unused(graded):
    """Before, as root, the cell stopped at `import matplotlib.pyplot` (and at `import timeit`,
    which no worker had loaded): train was never defined, 12/18."""
    honest = _score(graded["honest"])
    assert honest[0] == honest[1] > 0
    assert _score(graded["extra_imports"]) == honest


def test_a_graded_function_using_a_missing_module_fails_at_its_line(graded):
    results = graded["plots_in_train"]
    score, full = _score(results, "5.2")
    assert full > 0 and score == 0
    assert _score(results)[0] == _score(graded["honest"])[0] - full  # Task 5.1 keeps its points
    said = [t["output"] for t in results["tests"] if t["extra_data"]["task"] == "5.2"]
    first = [m for m in said if not points_back(m)]  # one message per task, the rest point back to it
    assert len(first) == 1 and len(said) > 1, said
    assert "ModuleNotFoundError" in first[0] and "`plt.plot(losses)`" in first[0], first[0]
    assert "cannot be imported where your code runs" in first[0], first[0]


def _kernel_namespace(train: str) -> dict:
    """The notebook's cells run as a kernel runs them: matplotlib imports here, if installed."""
    ns = {"__name__": "__main__"}
    for cell in grading_cells(LECTURE8, NOTEBOOK):
        exec(compile(train if cell.grade_id == TRAIN else cell.source, cell.grade_id, "exec"), ns)
    return ns


@pytest.mark.parametrize("student", ["extra_imports", "plots_in_train"])
def test_the_in_kernel_route_says_what_the_grader_will(student, monkeypatch, capsys):
    pytest.importorskip("matplotlib")
    pytest.importorskip("scipy")
    monkeypatch.setenv("MPLBACKEND", "Agg")
    monkeypatch.chdir(LECTURE8.source_dir)
    ns = _kernel_namespace(_train_cells(demo.solutions_by_grade_id(LECTURE8))[student])
    plt = ns["plt"]
    if student == "extra_imports":
        check_task("5.2", ns)
    else:
        with pytest.raises(AssertionError, match="ModuleNotFoundError: a module that cannot be imported where your code runs"):
            check_task("5.2", ns)
    assert ns["plt"] is plt  # the stand-in lasts only while the hidden tests run
    plt.close("all")  # no figure left for the next test of this process


def test_every_listed_module_is_loaded_before_the_workers_fork_and_graphlib_never():
    """What student code may import is loaded by the zygote (a worker cannot load it later,
    whoever runs it); graphlib is not, and the in-kernel route refuses it too."""
    code = ("import sys; from autograder.sandbox import zygote; zygote._preimport(); "
            "print(' '.join(sorted(sys.modules)))")
    loaded = set(subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split())
    assert set(importable.COMMON_MODULES) <= loaded, sorted(set(importable.COMMON_MODULES) - loaded)
    assert "graphlib" not in loaded and "graphlib" not in importable.KERNEL_IMPORTABLE


def test_a_worker_refuses_what_its_zygote_did_not_load_whoever_runs_it():
    """As an ordinary user a worker could read graphlib (root's pyenv is closed to nobody): after
    refuse_unloaded it cannot, as under root; what was loaded, and a loaded package's
    submodules, still import."""
    code = ("import argparse, json, sys; from autograder import importable; importable.refuse_unloaded()\n"
            "import json.tool\n"
            "try:\n    import graphlib\nexcept ModuleNotFoundError as e:\n    print('refused', e.name)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "refused graphlib"
