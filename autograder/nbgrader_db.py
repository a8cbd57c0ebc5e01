"""What the course reads from nbgrader's gradebook (``gradebook.db`` of the course root): the
student list (the roster) and the students' names, an assignment's presence and due date.
Writing grades into it is the exports' (``export.gradebook``).
"""
from __future__ import annotations

import datetime as dt
from pathlib import Path


class GradebookProblem(Exception):
    pass


def roster(db_path: Path) -> list[str]:
    """The student ids of nbgrader's student list (``nbgrader db student list``)."""
    from nbgrader.api import Gradebook

    with Gradebook(f"sqlite:///{db_path.resolve()}") as gb:
        return sorted(s.id for s in gb.students)


def student_names(db_path: Path) -> dict[str, str]:
    """{student id: "First Last"} of nbgrader's student list, for those it has a name of; {} when
    the course has no gradebook (reading one never creates it)."""
    if not db_path.is_file():
        return {}
    from nbgrader.api import Gradebook

    with Gradebook(f"sqlite:///{db_path.resolve()}") as gb:
        names = {s.id: " ".join(part for part in (s.first_name, s.last_name) if part) for s in gb.students}
    return {student: name for student, name in names.items() if name}


def check_assignment(db_path: Path, assignment: str) -> None:
    """Raise GradebookProblem unless ``assignment`` is in the gradebook: checked before grading,
    so that a class is not graded for scores that cannot be written."""
    from nbgrader.api import Gradebook, MissingEntry

    with Gradebook(f"sqlite:///{db_path.resolve()}") as gb:
        try:
            gb.find_assignment(assignment)
        except MissingEntry:
            raise GradebookProblem(not_in_gradebook(db_path, assignment)) from None


def not_in_gradebook(db_path: Path, assignment: str) -> str:
    return (f"assignment {assignment!r} is not in {db_path}: run nbgrader generate_assignment {assignment} "
            "(make release) first")


def due_date(db_path: Path, assignment: str) -> dt.datetime | None:
    """The assignment's due date in the gradebook (UTC), None when it has none."""
    from nbgrader.api import Gradebook, MissingEntry

    with Gradebook(f"sqlite:///{db_path.resolve()}") as gb:
        try:
            due = gb.find_assignment(assignment).duedate
        except MissingEntry:
            return None
    return None if due is None else due.replace(tzinfo=dt.timezone.utc)
