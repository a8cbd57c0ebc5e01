"""Where everything of a course lives: the one place that builds its paths.

A course root holds (nbgrader's layout, plus the hidden suites)::

    nbgrader_config.py
    solutions/<assignment>/<NN_name>.ipynb          instructor notebooks (nbgrader source)
    course/<assignment>/<NN_name>.ipynb             the student release (nbgrader release)
    autograder/suites/<assignment>/test_<NN_name>.py           hidden tests (trusted side)
    autograder/suites/<assignment>/probes/p<NN_name>.py        their probes (run in the sandbox)
    autograder/suites/<assignment>/judges/j<NN_name>.py        how a suite's rungs read its probes' reports
    autograder/suites/<assignment>/mistakes/*.py               plausible wrong answers (selfcheck)
    submitted/<student>/<assignment>/*.ipynb        what nbgrader collects
    autograded/<student>/<assignment>/*.ipynb       what nbgrader's formgrader lists (--gradebook)
    feedback/<student>/<assignment>/*.html          what nbgrader's release_feedback hands back
    gradebook.db                                    nbgrader's gradebook

An assignment exists when both ``solutions/<a>/`` and ``autograder/suites/<a>/`` do: adding a
lecture is adding those folders, nothing else. The grader's code (this package) may be
installed anywhere; the course root is found by ``Course.locate``. Any nbgrader course root (a
demo's scratch one, an exchange's) is read through ``Course(root)`` as well.
"""
from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path

ROOT_ENV = "NEEDLE_COURSE_ROOT"
TASK_IN_GRADE_ID = re.compile(r"^task(\d+)_(\d+)_")


class CourseNotFound(LookupError):
    """No course root where one was looked for; the message says where and what is needed."""


class UnknownAssignment(LookupError):
    pass


def checkout() -> Path:
    """The folder this package sits in: a checkout of the course (with needle/, solutions/,
    pyproject.toml) when installed in editable mode, site-packages otherwise."""
    return Path(__file__).resolve().parents[1]


def task_of(grade_id: str) -> str | None:
    """The task ("N.M") of an nbgrader cell named ``taskN_M_...``, else None."""
    m = TASK_IN_GRADE_ID.match(grade_id or "")
    return f"{m.group(1)}.{m.group(2)}" if m else None


@dataclass(frozen=True)
class Course:
    root: Path

    @classmethod
    def locate(cls, explicit: Path | None = None) -> "Course":
        """The course root: ``explicit``, else $NEEDLE_COURSE_ROOT, else the current directory
        or one of its parents, else the checkout this package was imported from."""
        if explicit is not None:
            return cls._checked(Path(explicit), "given")
        if os.environ.get(ROOT_ENV):
            return cls._checked(Path(os.environ[ROOT_ENV]), f"${ROOT_ENV}")
        here = Path.cwd().resolve()
        for folder in (here, *here.parents):
            if cls(folder).looks_like_a_course():
                return cls(folder)
        if cls(checkout()).looks_like_a_course():
            return cls(checkout())
        raise CourseNotFound(
            f"no course root found from {here}: expected a folder with solutions/ and autograder/suites/ "
            f"(run from the course root, pass --course, or set {ROOT_ENV})"
        )

    @classmethod
    def _checked(cls, root: Path, how: str) -> "Course":
        course = cls(root.resolve())
        if not course.looks_like_a_course():
            raise CourseNotFound(f"{root} ({how}) is not a course root: expected solutions/ and autograder/suites/ in it")
        return course

    def looks_like_a_course(self) -> bool:
        return self.solutions_dir.is_dir() and self.suites_dir.is_dir()

    @property
    def solutions_dir(self) -> Path:
        return self.root / "solutions"

    @property
    def release_dir(self) -> Path:
        return self.root / "course"

    @property
    def suites_dir(self) -> Path:
        return self.root / "autograder" / "suites"

    @property
    def nbgrader_config(self) -> Path:
        return self.root / "nbgrader_config.py"

    @property
    def gradebook(self) -> Path:
        return self.root / "gradebook.db"

    @property
    def submitted_dir(self) -> Path:
        return self.root / "submitted"

    def submitted(self, student: str, assignment: str) -> Path:
        return self.submitted_dir / student / assignment

    def autograded(self, student: str, assignment: str) -> Path:
        return self.root / "autograded" / student / assignment

    def feedback(self, student: str, assignment: str) -> Path:
        return self.root / "feedback" / student / assignment

    def assignments(self) -> list[str]:
        """Every assignment with both notebooks and hidden suites, sorted."""
        if not self.suites_dir.is_dir():
            return []
        return sorted(
            p.name for p in self.suites_dir.iterdir()
            if p.is_dir() and not p.name.startswith(("_", ".")) and (self.solutions_dir / p.name).is_dir()
        )

    def assignment(self, name: str) -> "Assignment":
        if name not in self.assignments():
            raise UnknownAssignment(
                f"unknown assignment {name!r}: expected one of {self.assignments()} "
                f"(an assignment needs {self.solutions_dir / name}/ and {self.suites_dir / name}/)"
            )
        return Assignment(self, name)


@dataclass(frozen=True)
class Assignment:
    course: Course
    name: str

    @property
    def source_dir(self) -> Path:
        return self.course.solutions_dir / self.name

    @property
    def release_dir(self) -> Path:
        return self.course.release_dir / self.name

    @property
    def suite_dir(self) -> Path:
        return self.course.suites_dir / self.name

    @property
    def mistakes_dir(self) -> Path:
        return self.suite_dir / "mistakes"

    def notebooks(self) -> list[str]:
        """Notebook names (file stems), in order: 01_..., 02_..."""
        return sorted(p.stem for p in self.source_dir.glob("*.ipynb"))

    def source_notebook(self, notebook: str) -> Path:
        return self.source_dir / f"{notebook}.ipynb"

    def released_notebook(self, notebook: str) -> Path:
        return self.release_dir / f"{notebook}.ipynb"

    def suite(self, notebook: str) -> Path:
        return self.suite_dir / f"test_{notebook}.py"

    def probes(self, notebook: str) -> Path:
        return probes_beside(self.suite(notebook))

    def judges(self, notebook: str) -> Path:
        return judges_beside(self.suite(notebook))

    def hidden_sources(self) -> list[Path]:
        """The hidden code of every notebook: suites, their probes and their judges (what no
        student ever receives)."""
        found = []
        for notebook in self.notebooks():
            found += [p for p in (self.suite(notebook), self.probes(notebook), self.judges(notebook)) if p.is_file()]
        return found

    def mistakes(self) -> list[Path]:
        return sorted(self.mistakes_dir.glob("*.py")) if self.mistakes_dir.is_dir() else []


def probes_beside(suite: Path) -> Path:
    """A suite ``test_<notebook>.py``'s probes: ``probes/p<notebook>.py`` next to it (``suite``
    may also be its judges' file, ``judges/j<notebook>.py``)."""
    suite = suite_of(Path(suite))
    return suite.parent / "probes" / f"p{suite.stem.removeprefix('test_')}.py"


def judges_beside(suite: Path) -> Path:
    """A suite ``test_<notebook>.py``'s judges (how its rungs read the probes' reports, on the
    trusted side): ``judges/j<notebook>.py`` next to it."""
    suite = Path(suite)
    return suite.parent / "judges" / f"j{suite.stem.removeprefix('test_')}.py"


def suite_of(path: Path) -> Path:
    """The suite a suite's own file or its judges' file (``judges/j<notebook>.py``) belongs to."""
    if path.parent.name == "judges":
        return path.parent.parent / f"test_{path.stem.removeprefix('j')}.py"
    return path
