"""Finding the submissions to grade, and the names they are reported under.

Layouts accepted for PATH:
* an nbgrader course root: every ``submitted/<student>/<assignment>/*.ipynb``;
* one student's folder of notebooks (the student is the folder's name, or its parent's
  when the folder is named after the assignment, as in nbgrader's layout);
* one notebook.

``--student NAME`` narrows a course root to ``submitted/NAME/<assignment>/`` (a regrade of one
student, gradebook included).

Folder names come from students: a name that is not a plain folder name, or that equals one of
the grader's own output files, is reported under an escaped name (``escaped-<hash>``); a
submission folder that is a symbolic link is refused (it could point at the solutions).
"""
from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from pathlib import Path

from .console import note, printable
from .course import Assignment, Course

PLAIN_NAME = re.compile(r"^[A-Za-z0-9_][A-Za-z0-9_.@+-]{0,63}$")
# Files the grader and its reports write beside the student folders (``grade --out``, and the
# originality and insights reports when given the same folder). A student folder so named would
# collide with one of them (red team, round 5: a folder named escaped_names.csv stopped every
# report after it), so it is reported under an escaped name, as is any name ending like a report.
RESERVED = {"grades.csv", "escaped_names.csv", "originality.html", "originality.csv", "originality_pairs.csv",
            "insights.html", "insights.csv"}
REPORT_SUFFIXES = (".csv", ".html", ".json")


class UsageProblem(Exception):
    """Bad arguments: the message says what was wrong and what was expected (exit 2)."""


def does_not_exist(path: Path) -> UsageProblem:
    return UsageProblem(f"{path} does not exist; expected an nbgrader course root, a student's folder or a notebook")


def student_needs_a_course_root(path: Path, assignment: str = "<assignment>") -> UsageProblem:
    return UsageProblem(f"--student needs an nbgrader course root (with submitted/<student>/{assignment}/); {path} is not one")


def not_a_notebook(path: Path) -> UsageProblem:
    return UsageProblem(f"{path} is not a notebook (.ipynb)")


@dataclass
class Job:
    student: str  # the name in every report and output folder (plain, never reserved)
    notebook: str  # stem, e.g. 01_graph_accumulation
    path: Path | None  # None: nothing to grade (see ``problem``)
    student_id: str = ""  # the folder name as found, when ``student`` had to be escaped
    problem: str = ""  # why ``path`` is None: empty means "not submitted"

    @property
    def original_id(self) -> str:
        return self.student_id or self.student


def report_name(student_id: str) -> str:
    """``student_id`` itself when it is a plain folder name, else a stable escaped name."""
    if PLAIN_NAME.match(student_id) and not is_reserved(student_id) and not student_id.startswith("escaped-"):
        return student_id
    return "escaped-" + hashlib.sha256(student_id.encode("utf-8", "surrogateescape")).hexdigest()[:12]


def is_reserved(name: str) -> bool:
    """Whether a folder of this name beside the reports could collide with one (any case)."""
    return name.lower() in RESERVED or name.lower().endswith(REPORT_SUFFIXES)


def _job(student_id: str, notebook: str, path: Path | None, problem: str = "") -> Job:
    name = report_name(student_id)
    return Job(name, notebook, path, "" if name == student_id else student_id, problem)


def _student_of(folder: Path, assignment: str) -> str:
    folder = folder.resolve()
    return folder.parent.name if folder.name == assignment else folder.name


def discover(path: Path, assignment: Assignment, student: str | None = None) -> list[Job]:
    """The jobs for ``path``; ``student`` (an nbgrader course root only): that student's alone."""
    known = assignment.notebooks()
    submitted = Course(path).submitted_dir
    if student is not None and not submitted.is_dir():
        raise student_needs_a_course_root(path, assignment.name)
    if not path.exists() and not path.is_symlink():
        raise does_not_exist(path)
    if path.is_file() or path.is_symlink() and not path.is_dir():
        if path.suffix != ".ipynb":
            raise not_a_notebook(path)
        present, notes = match_notebooks([path], known, path.parent)
        if not present:
            raise UsageProblem(f"{path.name} is not a notebook of {assignment.name}; expected one of: {', '.join(known)}")
        for text in notes:
            note(text)
        [(name, _)] = present.items()
        return [_job(_student_of(path.parent, assignment.name), name, path)]
    if submitted.is_dir():
        students = sorted(p for p in submitted.iterdir() if (p / assignment.name).is_dir())
        if student is None:  # nothing of the class is skipped without a word
            for stray in sorted(set(submitted.iterdir()) - set(students)):
                if not stray.name.startswith("."):
                    note(f"{printable(stray.name)!r} in {submitted} has no {assignment.name}/ folder: not graded "
                          f"(nbgrader's layout: submitted/<student>/{assignment.name}/<notebook>.ipynb)")
        if student is not None:
            students = [p for p in students if p.name == student]
            if not students:
                raise UsageProblem(f"--student {printable(student)!r}: {submitted} has no "
                                   f"{printable(student)}/{assignment.name}/ folder (student ids are the folder names there)")
        if not students:
            raise UsageProblem(f"{submitted} has no <student>/{assignment.name}/ folders: nothing to grade")
        jobs = []
        for folder in students:
            notebooks = folder / assignment.name
            if folder.is_symlink() or notebooks.is_symlink():
                jobs += [_job(folder.name, n, None, "the submission folder is a symbolic link, not a folder") for n in known]
            else:
                jobs += _folder_jobs(notebooks, folder.name, known, all_notebooks=True)
        return jobs
    jobs = _folder_jobs(path, _student_of(path, assignment.name), known, all_notebooks=False)
    if not jobs:
        raise UsageProblem(f"{path} holds no notebook of {assignment.name} (expected files named like {known[0]}.ipynb)")
    return jobs


# Renamed copies of a notebook, as students' tools name them (Gradescope's module docstring):
COPY_OF = re.compile(r"^(copy of |kopie van |copie de )+")
COPY_SUFFIX = re.compile(r"(\s*\(\d+\)|[-_ ]copy\d*|\s+-\s+copy(\s*\(\d+\))?|-\d+)$")


def _canonical(stem: str) -> str:
    """A notebook name as its renamings share it: lower case, copy marks gone, separators one "_"."""
    name = COPY_OF.sub("", stem.strip().lower())
    while True:
        shorter = COPY_SUFFIX.sub("", name).strip()
        if shorter == name:
            break
        name = shorter
    return re.sub(r"[\s_-]+", "_", name)


def match_notebooks(paths: list[Path], known: list[str], submission: Path) -> tuple[dict[str, Path], list[str]]:
    """Each known notebook's file among ``paths`` (a submission's, under ``submission``), and notes
    on what was matched how (file names are the student's own, shown made printable): the same
    files are graded on Gradescope (its upload) and locally (a student's folder)."""
    canonical = {_canonical(name): name for name in known}
    candidates: dict[str, list[Path]] = {name: [] for name in known}
    notes, unknown = [], []
    for path in paths:
        name = path.stem if path.stem in candidates else canonical.get(_canonical(path.stem))
        if name is None:
            unknown.append(path)
        else:
            candidates[name].append(path)

    def shown(path: Path) -> str:
        return repr(printable(path.relative_to(submission).as_posix(), 120))

    present = {}
    for name, paths in candidates.items():
        if not paths:
            continue
        chosen = min(paths, key=lambda p: (p.stem != name, len(p.relative_to(submission).parts), p.as_posix()))
        present[name] = chosen
        if chosen.stem != name:
            notes.append(f"{shown(chosen)} was graded as {name}.ipynb.")
        others = [p for p in paths if p != chosen]
        if others:
            notes.append(f"Several files for {name}: {shown(chosen)} was graded; "
                         f"{', '.join(map(shown, others))} {'was' if len(others) == 1 else 'were'} not. Upload one copy.")
    if unknown:
        notes.append(f"Not a notebook of this assignment, not graded: {', '.join(map(shown, unknown))} "
                     f"(expected names like {known[0]}.ipynb).")
    return present, notes


def _folder_jobs(folder: Path, student_id: str, known: list[str], all_notebooks: bool) -> list[Job]:
    present, notes = match_notebooks(sorted(folder.glob("*.ipynb")), known, folder)
    for text in notes:  # "Copy of 01_graph_accumulation.ipynb" graded as 01, as on Gradescope
        note(f"{printable(student_id, 64)!r}: {text}")
    names = known if all_notebooks else [n for n in known if n in present]
    return [_job(student_id, n, present.get(n)) for n in names]
