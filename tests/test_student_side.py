"""The student's side of nbgrader's exchange with this course's config (deploy/jupyterhub/student/).

- The Assignments panel (nbgrader's assignment-list server extension, driven here as JupyterLab
  drives it) fetches into the folder JupyterLab serves and submits from there, wherever the server
  was started: nbgrader's own default read its "." from the server's start folder, so Fetch wrote
  outside the file browser and Submit sent that untouched copy.
- Submit refuses an assignment whose every notebook is the release as fetched, and submits one
  where the student changed a notebook.

The exchange is laid out as ``nbgrader release_assignment`` leaves it (outbound/<assignment>/,
inbound/ writable by all); the whole term, instructor included, is tests/e2e/test_student_term.py.
"""
from __future__ import annotations

import json
import os
import pwd
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import ROOT

ASSIGNMENT = "lecture8"
COURSE_ID = "needle-course"
STUDENT_CONFIG = ROOT / "deploy" / "jupyterhub" / "student"
RELEASE = ROOT / "course" / ASSIGNMENT
FIRST = "01_graph_accumulation.ipynb"


@pytest.fixture
def exchange(tmp_path: Path) -> Path:
    root = tmp_path / "exchange"
    shutil.copytree(RELEASE, root / COURSE_ID / "outbound" / ASSIGNMENT)
    (root / COURSE_ID / "inbound").mkdir()
    (root / COURSE_ID / "inbound").chmod(0o1777)
    return root


# Without a hub, nbgrader's student id is the Unix user's name.
STUDENT = pwd.getpwuid(os.getuid()).pw_name


def student_env(tmp_path: Path, exchange: Path) -> dict:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("JUPYTER", "NBGRADER", "IPYTHON"))}
    home = tmp_path / "home"
    home.mkdir(exist_ok=True)
    env.update(HOME=str(home), JUPYTER_CONFIG_PATH=str(STUDENT_CONFIG), NBGRADER_EXCHANGE=str(exchange))
    return env


PANEL = """
import json, os, sys
from nbgrader.server_extensions.assignment_list.handlers import AssignmentList
panel = AssignmentList()
panel.root_dir = sys.argv[1]   # what JupyterLab serves (the server's root_dir)
action = sys.argv[2]
if action == "list":
    print(json.dumps(panel.list_assignments("needle-course")))
else:
    print(json.dumps(getattr(panel, action)("needle-course", "lecture8")))
"""


def panel(action: str, served: Path, started_in: Path, env: dict) -> dict:
    """What the Assignments panel's button ``action`` does, in a server started in ``started_in``
    serving ``served`` (a process of its own: the extension changes the working folder)."""
    proc = subprocess.run([sys.executable, "-c", PANEL, str(served), action], cwd=started_in, env=env,
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout.strip().splitlines()[-1])


def inbound(exchange: Path) -> list[str]:
    return sorted(p.name for p in (exchange / COURSE_ID / "inbound").iterdir())


def test_the_panel_fetches_into_the_served_folder_and_submits_what_was_saved_there(tmp_path, exchange):
    env = student_env(tmp_path, exchange)
    served, elsewhere = tmp_path / "served", tmp_path / "started-here"
    served.mkdir(), elsewhere.mkdir()
    listed = panel("list", served, elsewhere, env)
    assert listed["success"] and [a["status"] for a in listed["value"]] == ["released"], listed

    assert panel("fetch_assignment", served, elsewhere, env)["success"]
    assert sorted(p.name for p in (served / ASSIGNMENT).glob("*.ipynb")) == sorted(p.name for p in RELEASE.glob("*.ipynb"))
    assert list(elsewhere.iterdir()) == [], "Fetch wrote outside the folder JupyterLab serves"
    listed = panel("list", served, elsewhere, env)["value"]
    assert [a["status"] for a in listed] == ["fetched"] and listed[0]["path"] == ASSIGNMENT  # relative to the served root

    # The student saves an edit in the notebook the file browser shows; Submit sends that file.
    notebook = served / ASSIGNMENT / FIRST
    nb = json.loads(notebook.read_text(encoding="utf-8"))
    stub = next(c for c in nb["cells"] if c["metadata"].get("nbgrader", {}).get("grade_id") == "task1_1_count_graph_nodes")
    stub["source"] = "def count_graph_nodes(t) -> int:\n    return 42  # the student's own (wrong) answer\n"
    notebook.write_text(json.dumps(nb), encoding="utf-8")
    assert panel("submit_assignment", served, elsewhere, env)["success"]
    [submission] = inbound(exchange)
    assert submission.startswith(f"{STUDENT}+{ASSIGNMENT}+")
    sent = json.loads((exchange / COURSE_ID / "inbound" / submission / FIRST).read_text(encoding="utf-8"))
    assert any("return 42  # the student's own" in "".join(c["source"]) for c in sent["cells"])


def test_submit_refuses_the_untouched_release_and_says_which_folder_it_sends(tmp_path, exchange):
    env = student_env(tmp_path, exchange)
    served = tmp_path / "served"
    served.mkdir()
    assert panel("fetch_assignment", served, served, env)["success"]
    refused = panel("submit_assignment", served, served, env)
    assert not refused["success"]
    assert "Not submitted: nothing has changed since you fetched it." in refused["value"]
    assert f"Submit sends the notebooks of this folder:\n    {served / ASSIGNMENT}\n" in refused["value"]
    assert "save your work (File > Save Notebook)" in refused["value"]
    assert inbound(exchange) == []


def test_a_partly_solved_assignment_is_submitted(tmp_path, exchange):
    """Untouched notebooks beside a changed one: a student may skip a notebook; nbgrader's CLI too."""
    env = student_env(tmp_path, exchange)
    work = tmp_path / "work"
    shutil.copytree(RELEASE, work / ASSIGNMENT)
    notebook = work / ASSIGNMENT / FIRST
    nb = json.loads(notebook.read_text(encoding="utf-8"))
    stub = next(c for c in nb["cells"] if c["metadata"].get("nbgrader", {}).get("solution"))
    stub["source"] = "".join(stub["source"]) + "\n# started\n"
    notebook.write_text(json.dumps(nb), encoding="utf-8")
    nbgrader = Path(sys.executable).parent / "nbgrader"
    proc = subprocess.run([str(nbgrader), "submit", ASSIGNMENT], cwd=work, env=env, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert len(inbound(exchange)) == 1
    assert "as released (unchanged)" in proc.stderr and FIRST not in proc.stderr.split("unchanged")[-1]


def test_submit_check_reads_only_the_solution_cells(tmp_path):
    sys.path.insert(0, str(STUDENT_CONFIG))
    try:
        from submit_check import stub_sources, untouched_notebooks
    finally:
        sys.path.remove(str(STUDENT_CONFIG))
    mine = tmp_path / "mine"
    shutil.copytree(RELEASE, mine)
    notebook = mine / FIRST
    nb = json.loads(notebook.read_text(encoding="utf-8"))
    prose = next(c for c in nb["cells"] if c["cell_type"] == "markdown")
    prose["source"] = "a note of mine"  # not a cell the student fills: still untouched
    notebook.write_text(json.dumps(nb), encoding="utf-8")
    untouched, compared = untouched_notebooks(str(mine), str(RELEASE))
    assert FIRST in untouched and len(untouched) == len(compared) == len(list(RELEASE.glob("*.ipynb")))
    (mine / FIRST).write_text("not json", encoding="utf-8")
    assert stub_sources(str(mine / FIRST)) is None
    assert FIRST not in untouched_notebooks(str(mine), str(RELEASE))[0]  # unreadable is not "untouched"
