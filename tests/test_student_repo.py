"""`make student-repo`: the repository students get holds course/, needle/ and the students' own
Makefile, README, pyproject and Assignments config; no solution line, no hidden test, no grader.
The slow test sets it up as a student would (its `make setup`, from PyPI) and checks that needle
imports, JupyterLab runs and the grader is not there."""
from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
TOP_LEVEL = {".gitignore", ".student-repo", "Makefile", "README.md", "pyproject.toml", "foreground.py", "course", "needle",
             "coursekit", "jupyter-config"}
GRADER_PACKAGES = ("pytest", "hypothesis", "copydetect", "distributed", "nbclient")


@pytest.fixture(scope="module")
def repo(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("student") / "repo"
    made = subprocess.run(["make", "-s", "student-repo", f"STUDENT_REPO={out}"], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert made.returncode == 0, made.stderr
    assert f"student repository: {out}" in made.stdout
    return out


def files(folder: Path) -> list[Path]:
    return sorted(p for p in folder.rglob("*") if p.is_file())


def text_lines(path: Path) -> set[str]:
    """The stripped lines of a file; of a notebook, the lines of its cells' sources and outputs."""
    text = path.read_text(encoding="utf-8")
    if path.suffix == ".ipynb":
        cells = json.loads(text)["cells"]
        text = "\n".join("".join(c["source"]) + "\n" + json.dumps(c.get("outputs", [])) for c in cells)
    return {line.strip() for line in text.splitlines()}


SOLUTION_BLOCK = re.compile(r"### BEGIN SOLUTION\n(.*?)### END SOLUTION", re.S)
HIDDEN_BLOCK = re.compile(r"### BEGIN HIDDEN TESTS\n(.*?)### END HIDDEN TESTS", re.S)


def instructor_lines() -> tuple[set[str], set[str]]:
    """The stripped lines of the instructor notebooks' solution blocks, and those they show
    outside their solution and hidden-test blocks (what nbgrader releases as it is)."""
    hidden, shown = set(), set()
    for notebook in (ROOT / "solutions").glob("*/*.ipynb"):
        for cell in json.loads(notebook.read_text())["cells"]:
            source = "".join(cell["source"])
            for block in SOLUTION_BLOCK.findall(source):
                hidden |= {line.strip() for line in block.splitlines()}
            shown |= {line.strip() for line in HIDDEN_BLOCK.sub("", SOLUTION_BLOCK.sub("", source)).splitlines()}
    return hidden, shown


def solution_lines() -> set[str]:
    """Every line of a solution block that says something (20 characters or more, not a
    comment) and that the notebooks do not show elsewhere (Task 2.3 fixes a leaky loop the
    notebook gives): what no student file may hold."""
    hidden, shown = instructor_lines()
    return {line for line in hidden - shown if len(line) >= 20 and not line.startswith("#")}


def hidden_test_lines() -> set[str]:
    """The hidden suites', probes' and judges' lines of 30 characters or more (not imports, comments or
    docstring quotes) that neither the notebooks nor needle show (a probe may build the lecture's
    example, or define a method needle has too)."""
    lines = set()
    from autograder.course import Course  # the grader's own package; imported here, not by the student repository

    course = Course.locate(ROOT)
    for path in [p for name in course.assignments() for p in course.assignment(name).hidden_sources()]:
        lines |= {line.strip() for line in path.read_text().splitlines()}
    shown = instructor_lines()[1] | {line.strip() for package in ("needle", "coursekit")
                                     for path in (ROOT / package).rglob("*.py") for line in path.read_text().splitlines()}
    return {line for line in lines - shown if len(line) >= 30 and not line.startswith(("#", "import ", "from ", '"""'))}


def test_it_holds_the_course_needle_and_the_students_files_only(repo: Path) -> None:
    assert {p.name for p in repo.iterdir()} == TOP_LEVEL
    course = {p.relative_to(repo / "course") for p in files(repo / "course")}
    assert course and course == {p.relative_to(ROOT / "course") for p in files(ROOT / "course") if ".ipynb_checkpoints" not in p.parts}
    assert not [p for p in files(repo) if "__pycache__" in p.parts or ".ipynb_checkpoints" in p.parts]
    # needle and coursekit exactly as the instructor's: nothing added to them, nothing changed
    for package in ("needle", "coursekit"):
        ours = {p.relative_to(ROOT / package): p.read_bytes() for p in files(ROOT / package) if "__pycache__" not in p.parts}
        assert {p.relative_to(repo / package): p.read_bytes() for p in files(repo / package)} == ours
    for name in ("Makefile", "README.md", "pyproject.toml", "foreground.py"):
        assert (repo / name).read_bytes() == (ROOT / "deploy" / "student-repo" / name).read_bytes()
    config = ROOT / "deploy" / "jupyterhub" / "student"
    assert {p.relative_to(repo / "jupyter-config"): p.read_bytes() for p in files(repo / "jupyter-config")} == {
        p.relative_to(config): p.read_bytes() for p in files(config) if "__pycache__" not in p.parts}


def test_no_solution_line_outside_needle(repo: Path) -> None:
    """needle's own implementations are the library's (graded tasks have them excised); every
    other file must hold no line of an instructor solution."""
    solutions = solution_lines()
    assert len(solutions) > 50, "too few solution lines found: the check would prove nothing"
    for path in files(repo):
        if path.relative_to(repo).parts[0] == "needle" or path.name == ".student-repo":
            continue
        leaked = text_lines(path) & solutions
        assert not leaked, f"{path.relative_to(repo)} holds solution lines: {sorted(leaked)[:3]}"


def test_no_hidden_test_anywhere(repo: Path) -> None:
    hidden = hidden_test_lines()
    assert len(hidden) > 100, "too few hidden-test lines found: the check would prove nothing"
    for path in files(repo):
        if path.name == ".student-repo":
            continue
        leaked = text_lines(path) & hidden
        assert not leaked, f"{path.relative_to(repo)} holds lines of the hidden suites: {sorted(leaked)[:3]}"
        assert "check_task" not in path.read_text(encoding="utf-8"), f"{path.relative_to(repo)} calls the grader"


def test_the_checks_see_a_planted_leak(tmp_path: Path) -> None:
    """The control: a notebook holding one solution line and one hidden-test line is caught."""
    solution, hidden = sorted(solution_lines())[0], sorted(hidden_test_lines())[0]
    planted = tmp_path / "planted.ipynb"
    planted.write_text(json.dumps({"cells": [{"cell_type": "code", "source": [f"    {solution}\n", hidden], "outputs": []}]}))
    assert text_lines(planted) & solution_lines() == {solution}
    assert text_lines(planted) & hidden_test_lines() == {hidden}


def test_its_pyproject_and_makefile_are_the_students(repo: Path) -> None:
    project = tomllib.loads((repo / "pyproject.toml").read_text())
    assert project["tool"]["setuptools"]["packages"]["find"]["include"] == ["needle*", "coursekit*"]
    wanted = project["project"]["dependencies"] + [d for extra in project["project"]["optional-dependencies"].values() for d in extra]
    assert not [d for d in wanted if d.startswith(GRADER_PACKAGES) or "needle-course[" in d]
    assert set(project["project"]["optional-dependencies"]) == {"course", "hub"}
    targets = set(re.findall(r"^([a-z][\w-]*):", (repo / "Makefile").read_text(), re.M))
    assert targets == {"setup", "lab", "clean"}


def test_it_refuses_to_replace_a_folder_it_did_not_build(tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("mine")
    made = subprocess.run(["make", "-s", "student-repo", f"STUDENT_REPO={tmp_path}"], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert made.returncode != 0 and "holds other files" in made.stderr
    assert (tmp_path / "notes.txt").read_text() == "mine"


@pytest.mark.slow
@pytest.mark.skipif(not os.environ.get("NEEDLE_TEST_STUDENT_SETUP"),
                    reason="a fresh venv from PyPI takes minutes: make test-student-repo runs it (.ci/run does)")
def test_a_student_sets_it_up_without_the_grader(repo: Path) -> None:
    """The students' `make setup` (a fresh .venv from PyPI; pip's cache kept between runs in
    ~/.cache/needle-course/pip), then: needle imports, the kernel is registered, JupyterLab runs,
    and neither the grader nor its test tools are installed."""
    cache = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "needle-course" / "pip"
    env = {k: v for k, v in os.environ.items() if not k.startswith(("VIRTUAL_ENV", "PYTHONPATH", "JUPYTER"))}
    env.update(PIP_CACHE_DIR=str(cache), PIP_DISABLE_PIP_VERSION_CHECK="1", NBGRADER_EXCHANGE=str(repo / "exchange"))
    setup = subprocess.run(["make", "setup", f"PYTHON={sys.executable}"], cwd=repo, env=env, capture_output=True, text=True, timeout=1800)
    assert setup.returncode == 0, setup.stdout[-3000:] + setup.stderr[-3000:]
    python = repo / ".venv" / "bin" / "python"
    imported = subprocess.run([str(python), "-c", "import needle, coursekit, pathlib; print(pathlib.Path(needle.__file__).parent)"],
                              cwd=repo.parent, env=env, capture_output=True, text=True, timeout=120)
    assert imported.returncode == 0 and Path(imported.stdout.strip()) == repo / "needle", imported.stderr
    kernel = json.loads((repo / ".venv/share/jupyter/kernels/needle-course/kernel.json").read_text())
    assert kernel["display_name"] == "Python 3 (needle-course)" and Path(kernel["argv"][0]).parent == python.parent
    lab = subprocess.run([str(repo / ".venv/bin/jupyter"), "lab", "--help"], cwd=repo, env=env, capture_output=True, text=True, timeout=300)
    assert lab.returncode == 0 and "JupyterLab" in lab.stdout, lab.stderr[-2000:]
    for module in ("autograder", "pytest", "hypothesis", "copydetect"):
        found = subprocess.run([str(python), "-c", f"import {module}"], cwd=repo.parent, env=env, capture_output=True, text=True, timeout=120)
        assert found.returncode != 0, f"{module} is importable in the students' environment"
    assert (repo / "exchange").stat().st_mode & 0o1777 == 0o1777  # nbgrader's exchange, as setup makes it
