"""The Gradescope zip, run the way Gradescope runs it.

The zip is unpacked into ``<root>/source`` (``<root>`` stands for ``/autograder``); its own
``setup.sh`` builds ``<root>/venv`` (a fresh venv, a non-editable install of the zip with the
grader extra; the apt-get lines are skipped because python3.11 is already here); then, for each
upload, ``run_autograder`` runs as a separate process with a bare environment and grades
``<root>/submission`` into ``<root>/results/results.json``. Nothing of the development venv is
used, so this also tests grading from a non-editable install.
"""
import csv
import io
import json
import os
import shutil
import stat
import subprocess
import sys
import time
import zipfile
from pathlib import Path

import pytest

from autograder import demo
from autograder.check.selfcheck import load_mistake
from autograder import gradescope
from autograder.submissions import match_notebooks
from autograder.suiterun import collect_tests
from conftest import LECTURE8, grade_cli

pytestmark = pytest.mark.slow

NOTEBOOKS = LECTURE8.notebooks()
TESTS = {n: collect_tests(LECTURE8.suite(n)) for n in NOTEBOOKS}  # (test, name, task, points)
FULL = {n: sum(points for *_, points in TESTS[n]) for n in NOTEBOOKS}
MISTAKE = load_mistake(LECTURE8.mistakes_dir / "graph_count_paths.py")  # a wrong answer in 01
SETUP_TIMEOUT, GRADING_TIMEOUT = 600, 300


def python311_folder() -> str:
    """A folder holding a real ``python3.11`` that can make venvs (ensurepip): the
    distribution's (/usr/bin, as on Gradescope's Ubuntu), else that of the Python 3.11 running
    these tests, else that of the first python3.11 on PATH (shims resolved)."""
    running = sys.executable if sys.version_info[:2] == (3, 11) else None
    for candidate in filter(None, ["/usr/bin/python3.11", running, shutil.which("python3.11")]):
        probe = subprocess.run([candidate, "-c", "import sys, ensurepip, venv; print(sys._base_executable)"],
                               capture_output=True, text=True)
        folder = Path(probe.stdout.strip()).parent
        if probe.returncode == 0 and (folder / "python3.11").is_file():
            return str(folder)
    pytest.skip("no Python 3.11 able to make venvs on this machine to run the Gradescope setup.sh with")


@pytest.fixture(scope="module")
def gradescope_root(tmp_path_factory):
    """<root>/source (the unpacked zip) and <root>/venv, built by the zip's setup.sh."""
    base = tmp_path_factory.mktemp("gradescope")
    zpath = gradescope.build(LECTURE8, base / "autograder.zip")
    root = base / "autograder"
    zipfile.ZipFile(zpath).extractall(root / "source")
    fake = base / "fake"  # first on setup.sh's PATH: an apt-get that must not run (python3.11 is here)
    fake.mkdir()
    (fake / "apt-get").write_text(f"#!/bin/sh\n: > {base / 'apt-get-ran'}\nexit 1\n")
    (fake / "apt-get").chmod(0o755)
    # pip keeps the machine's index settings (PIP_*, HOME); nothing else of this process leaks in
    env = {k: v for k, v in os.environ.items() if k.startswith("PIP_") or k in ("HOME", "LANG")}
    python = python311_folder()
    env.update(PATH=f"{fake}:{python}:/usr/bin:/bin", AUTOGRADER_ROOT=str(root))
    start = time.monotonic()
    setup = subprocess.run(["bash", str(root / "source" / "setup.sh")], env=env, cwd=root / "source",
                           capture_output=True, text=True, timeout=SETUP_TIMEOUT)
    assert setup.returncode == 0, f"setup.sh failed:\n{setup.stdout[-3000:]}\n{setup.stderr[-3000:]}"
    print(f"setup.sh with {python}/python3.11: {time.monotonic() - start:.1f} s")
    assert not (base / "apt-get-ran").exists(), "setup.sh ran apt-get although python3.11 was present"
    return root


@pytest.fixture(scope="module")
def uploads(tmp_path_factory):
    """Notebooks as students upload them, from the committed release: solved, untouched
    (every stub left) and with MISTAKE, each under uploads/submitted/<which>/lecture8/."""
    root = tmp_path_factory.mktemp("uploads")
    demo.submit(LECTURE8.release_dir, root, LECTURE8.name, "solved", demo.solutions_by_grade_id(LECTURE8))
    demo.submit(LECTURE8.release_dir, root, LECTURE8.name, "untouched", {})
    demo.submit(LECTURE8.release_dir, root, LECTURE8.name, "mistake", demo.solutions_by_grade_id(LECTURE8) | MISTAKE["CELLS"])
    return lambda which, notebook: root / "submitted" / which / LECTURE8.name / f"{notebook}.ipynb"


def run_autograder(root: Path) -> subprocess.CompletedProcess:
    """run_autograder as Gradescope starts it, under umask 077 with a bare environment."""
    return subprocess.run(["bash", str(root / "source" / "run_autograder")], capture_output=True, text=True,
                          env={"PATH": "/usr/bin:/bin", "AUTOGRADER_ROOT": str(root)}, cwd="/",
                          umask=0o077, timeout=GRADING_TIMEOUT)


def grade_upload(root: Path, put_files) -> tuple[dict, subprocess.CompletedProcess]:
    """A fresh submission/ filled by ``put_files(submission)`` and an empty results/, as
    Gradescope prepares them, graded by run_autograder; results.json must be readable by all."""
    for folder in ("submission", "results"):
        shutil.rmtree(root / folder, ignore_errors=True)
        (root / folder).mkdir()
    put_files(root / "submission")
    done = run_autograder(root)
    assert done.returncode == 0, f"run_autograder failed:\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
    results = root / "results" / "results.json"
    assert stat.S_IMODE(results.stat().st_mode) == 0o644, "results.json must be readable by Gradescope's harness user"
    return json.loads(results.read_text()), done


def scores_by_notebook(data: dict) -> dict[str, float]:
    totals = dict.fromkeys(NOTEBOOKS, 0.0)
    for t in data["tests"]:
        totals[t["extra_data"]["notebook"]] += t["score"]
    return totals


def assert_gradescope_schema_with_every_test(data: dict) -> None:
    """Gradescope's results.json, listing every hidden test of every notebook once."""
    assert isinstance(data["score"], (int, float)) and data["score"] == sum(t["score"] for t in data["tests"])
    assert data["stdout_visibility"] == "hidden"  # the isolation report is for the instructor
    for t in data["tests"]:
        assert {"name", "score", "max_score", "status", "output", "visibility"} <= set(t)
        assert t["status"] in ("passed", "failed") and t["visibility"] == "visible"
        assert isinstance(t["score"], (int, float)) and 0 <= t["score"] <= t["max_score"]
    listed = sorted((t["extra_data"]["notebook"], t["extra_data"]["test"]) for t in data["tests"])
    assert listed == sorted((n, test) for n in NOTEBOOKS for test, *_ in TESTS[n])


def hidden_source_lines() -> set[str]:
    """Lines of the hidden suites and probes long enough to be recognisable."""
    lines = set()
    for path in LECTURE8.hidden_sources():
        for line in path.read_text().splitlines():
            line = line.strip()
            if len(line) > 25 and not line.startswith(('"', "'", "#")) and not line.startswith("assert"):
                lines.add(line)
    return lines


def test_the_zip_holds_the_entry_points_and_this_assignment_only(tmp_path):
    zpath = gradescope.build(LECTURE8, tmp_path / "a.zip")
    infos = {i.filename: i for i in zipfile.ZipFile(zpath).infolist()}
    for script in ("setup.sh", "run_autograder"):
        assert stat.S_IMODE(infos[script].external_attr >> 16) == 0o755, script
    assert {"pyproject.toml", "README.md", "autograder/cli.py", "autograder/sandbox/zygote.py", "needle/__init__.py"} <= set(infos)
    assert {f"autograder/suites/lecture8/test_{n}.py" for n in NOTEBOOKS} <= set(infos)
    assert {f"solutions/lecture8/{n}.ipynb" for n in NOTEBOOKS} <= set(infos)
    assert all(n.startswith(("autograder/suites/lecture8/", "solutions/lecture8/")) for n in infos
               if n.startswith(("autograder/suites/", "solutions/")))
    assert not [n for n in infos if n.startswith(("tests/", "course/", ".")) or "__pycache__" in n]
    assert gradescope.build(LECTURE8, tmp_path / "b.zip").read_bytes() == zpath.read_bytes()  # reproducible


def test_setup_sh_turns_to_apt_get_when_python311_is_missing(tmp_path):
    (tmp_path / "source").mkdir()
    (tmp_path / "source" / "setup.sh").write_text(gradescope.SETUP_SH)
    fake = tmp_path / "fake"  # the only folder on PATH: no python3.11, an apt-get that records its call
    fake.mkdir()
    (fake / "apt-get").write_text(f"#!/bin/sh\necho \"$@\" >> {tmp_path / 'apt-get-calls'}\nexit 1\n")
    (fake / "apt-get").chmod(0o755)
    done = subprocess.run(["/bin/bash", str(tmp_path / "source" / "setup.sh")], capture_output=True, text=True,
                          env={"PATH": str(fake), "AUTOGRADER_ROOT": str(tmp_path)})
    assert done.returncode == 1  # set -e: the failed apt-get stops the script
    assert (tmp_path / "apt-get-calls").read_text() == "update\n"
    assert not (tmp_path / "venv").exists()


def test_setup_sh_installs_the_grader_not_editable(gradescope_root):
    site = next((gradescope_root / "venv" / "lib").glob("python3.*/site-packages"))
    assert (site / "autograder" / "sandbox" / "zygote.py").is_file() and (site / "needle" / "__init__.py").is_file()
    assert (site / "coursekit" / "hints.py").is_file()
    assert not list(site.glob("__editable__*")), "setup.sh made an editable install"
    (dist_info,) = site.glob("needle_course-*.dist-info")
    assert not json.loads((dist_info / "direct_url.json").read_text())["dir_info"].get("editable", False)
    for module in ("pytest", "hypothesis", "numpy"):
        assert (site / module).is_dir(), f"setup.sh did not install {module}"


def test_a_partial_upload_of_solved_notebooks_scores_exactly_those(gradescope_root, uploads):
    def put(submission):  # in a subfolder, as an upload from a repository would be
        (submission / "lecture8").mkdir()
        for n in NOTEBOOKS[:2]:
            shutil.copy(uploads("solved", n), submission / "lecture8")

    data, done = grade_upload(gradescope_root, put)
    assert_gradescope_schema_with_every_test(data)
    assert scores_by_notebook(data) == {n: (FULL[n] if n in NOTEBOOKS[:2] else 0) for n in NOTEBOOKS}
    assert data["score"] == FULL[NOTEBOOKS[0]] + FULL[NOTEBOOKS[1]] > 0
    assert all(t["status"] == "passed" for t in data["tests"] if t["extra_data"]["notebook"] in NOTEBOOKS[:2])
    text = (gradescope_root / "results" / "results.json").read_text()
    leaked = [line for line in hidden_source_lines() if line in text]
    assert not leaked, f"results.json contains hidden source: {leaked[:3]}"
    assert "Traceback" not in text and 'File "' not in text
    isolation = [line for line in done.stdout.splitlines() if line.startswith("isolation: ")]
    assert len(isolation) == 1 and "no worker was started" not in isolation[0], done.stdout


def test_wrong_answers_and_links_score_as_the_development_grader_does(gradescope_root, uploads, tmp_path):
    """01 with MISTAKE, 02 untouched: the same per-test scores, and the same isolation, as the
    development venv's grader gives them; 03 a link to the solution and 04 behind a linked
    folder: 0 (links are not followed)."""
    solutions = gradescope_root / "source" / "solutions" / "lecture8"
    first, second, linked, behind_link = NOTEBOOKS[:4]

    def put(submission):
        shutil.copy(uploads("mistake", first), submission)
        shutil.copy(uploads("untouched", second), submission)
        (submission / f"{linked}.ipynb").symlink_to(solutions / f"{linked}.ipynb")
        (submission / "extra").symlink_to(solutions)  # extra/<behind_link>.ipynb is the solution

    data, done = grade_upload(gradescope_root, put)
    assert_gradescope_schema_with_every_test(data)
    student = tmp_path / "student"
    student.mkdir()
    shutil.copy(uploads("mistake", first), student)
    shutil.copy(uploads("untouched", second), student)
    dev = grade_cli(student, "--out", tmp_path / "out", "--jobs", "2")  # the development venv's grader
    assert dev.returncode == 0, dev.stderr[-2000:]

    per_test = {(t["extra_data"]["notebook"], t["extra_data"]["test"]): t["score"] for t in data["tests"]}
    rows = csv.DictReader(io.StringIO((tmp_path / "out" / "grades.csv").read_text()))
    assert {(r["notebook"], r["test"]): float(r["score"]) for r in rows} == \
        {key: score for key, score in per_test.items() if key[0] in (first, second)}
    assert all(per_test[(MISTAKE["NOTEBOOK"], test)] == 0 for test in MISTAKE["MUST_FAIL"])
    scores = scores_by_notebook(data)
    assert 0 < scores[first] < FULL[first]
    assert scores[second] == scores[linked] == scores[behind_link] == 0
    assert data["score"] == scores[first]
    isolation = next(line for line in dev.stdout.splitlines() if line.startswith("isolation: "))
    assert "no worker was started" not in isolation and isolation in done.stdout.splitlines(), done.stdout


def test_an_upload_without_notebooks_says_what_was_expected(gradescope_root):
    def put(submission):
        (submission / "README.md").write_text("my work\n")
        (submission / "lecture8_part1.ipynb").write_text("{}")  # not a notebook name of lecture8

    data, _ = grade_upload(gradescope_root, put)
    assert_gradescope_schema_with_every_test(data)
    assert data["score"] == 0
    assert data["output"] == (f"No notebook of lecture8 was found in the upload; expected files named like "
                              f"{NOTEBOOKS[0]}.ipynb.\nNot a notebook of this assignment, not graded: "
                              f"'lecture8_part1.ipynb' (expected names like {NOTEBOOKS[0]}.ipynb).")


def test_without_a_submission_folder_it_says_so_and_writes_nothing(gradescope_root):
    shutil.rmtree(gradescope_root / "submission", ignore_errors=True)
    shutil.rmtree(gradescope_root / "results", ignore_errors=True)
    done = run_autograder(gradescope_root)
    assert done.returncode == 2
    assert done.stderr == (f"autograder: error: {gradescope_root / 'submission'} is not a directory; "
                           "expected Gradescope's submission folder\n")
    assert not (gradescope_root / "results").exists()


# --- uploads as students name them (the development venv's grader, the real command) ----------
def test_usual_renamings_are_matched_and_every_file_is_accounted_for(tmp_path):
    for name in ("08_train_digits (1).ipynb", "08_Train_Digits-Copy1.ipynb", "Copy of 03_stable_softmax.ipynb",
                 "sub/02_detach-1.ipynb", "02_detach.ipynb", "scratch.ipynb", ".ipynb_checkpoints/05_optimizer_training-checkpoint.ipynb",
                 "__MACOSX/._04_module_parameters.ipynb"):
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text("{}")
    present, notes = match_notebooks(gradescope._uploaded(tmp_path), NOTEBOOKS, tmp_path)
    assert {n: p.relative_to(tmp_path).as_posix() for n, p in present.items()} == {
        "02_detach": "02_detach.ipynb",  # the exact name wins
        "03_stable_softmax": "Copy of 03_stable_softmax.ipynb",
        "08_train_digits": "08_Train_Digits-Copy1.ipynb",  # before "08_train_digits (1)" in path order
    }
    assert notes == [
        "Several files for 02_detach: '02_detach.ipynb' was graded; 'sub/02_detach-1.ipynb' was not. Upload one copy.",
        "'Copy of 03_stable_softmax.ipynb' was graded as 03_stable_softmax.ipynb.",
        "'08_Train_Digits-Copy1.ipynb' was graded as 08_train_digits.ipynb.",
        "Several files for 08_train_digits: '08_Train_Digits-Copy1.ipynb' was graded; '08_train_digits (1).ipynb' was not. Upload one copy.",
        f"Not a notebook of this assignment, not graded: 'scratch.ipynb' (expected names like {NOTEBOOKS[0]}.ipynb).",
    ]


def test_a_renamed_upload_is_graded_with_the_visibility_asked_for(uploads, tmp_path):
    """`python -m autograder gradescope` as run_autograder runs it: a renamed copy is graded and
    named, its duplicate named, the tests' visibility is the one configured, execution_time reported."""
    first = NOTEBOOKS[0]
    submission, results = tmp_path / "submission", tmp_path / "results"
    (submission / "a").mkdir(parents=True)
    (submission / "b").mkdir()
    shutil.copy(uploads("solved", first), submission / "a" / f"{first} (1).ipynb")
    shutil.copy(uploads("untouched", first), submission / "b" / f"Copy of {first}.ipynb")
    done = subprocess.run([sys.executable, "-m", "autograder", "gradescope", "--assignment", LECTURE8.name,
                           "--submission", str(submission), "--results", str(results), "--visibility", "after_due_date"],
                          capture_output=True, text=True, timeout=GRADING_TIMEOUT)
    assert done.returncode == 0, done.stderr[-3000:]
    data = json.loads((results / "results.json").read_text())
    assert scores_by_notebook(data)[first] == FULL[first] == data["score"]
    assert f"'a/{first} (1).ipynb' was graded as {first}.ipynb." in data["output"]
    assert f"'b/Copy of {first}.ipynb' was not" in data["output"]
    assert {t["visibility"] for t in data["tests"]} == {"after_due_date"} and data["visibility"] == "after_due_date"
    assert isinstance(data["execution_time"], int) and data["execution_time"] >= 0


def test_the_zip_runs_with_the_visibility_it_was_built_with(tmp_path):
    zpath = gradescope.build(LECTURE8, tmp_path / "a.zip", "after_published")
    script = zipfile.ZipFile(zpath).read("run_autograder").decode()
    assert "--visibility after_published" in script
