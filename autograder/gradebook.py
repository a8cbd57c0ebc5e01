"""Write scores into an nbgrader gradebook (``--gradebook``), by grade cell.

A test cell ``taskN_M_tests`` in the instructor notebook is the grade cell of Task N.M; its
auto score becomes the sum of that task's passed tests, so ``nbgrader export`` and the
formgrader show the grader's scores. The assignment and its grade cells must already be in
the database (``nbgrader generate_assignment`` puts them there).
"""
from __future__ import annotations

import warnings
from pathlib import Path

from .runner import NotebookResult
from .selfcheck import task_of


class GradebookProblem(Exception):
    pass


def write_gradebook(db_path: Path, assignment: str, results: list[NotebookResult]) -> int:
    from nbgrader.api import Gradebook, MissingEntry

    with warnings.catch_warnings():
        # nbgrader's own SQLAlchemy usage warns on add_submission; nothing we can act on.
        warnings.filterwarnings("ignore", module="nbgrader")
        return _write(Gradebook, MissingEntry, db_path, assignment, results)


def _write(Gradebook, MissingEntry, db_path: Path, assignment: str, results: list[NotebookResult]) -> int:
    written = 0
    with Gradebook(f"sqlite:///{db_path.resolve()}") as gb:
        try:
            gb.find_assignment(assignment)
        except MissingEntry:
            raise GradebookProblem(f"assignment {assignment!r} is not in {db_path}: run nbgrader generate_assignment first") from None
        for r in results:
            gb.update_or_create_student(r.student)
            try:
                gb.find_submission(assignment, r.student)
            except MissingEntry:
                gb.add_submission(assignment, r.student)
            scores: dict[str, float] = {}
            for t in r.tests:
                scores[t.task] = scores.get(t.task, 0.0) + t.score
            notebook = gb.find_notebook(r.notebook, assignment)
            for cell in notebook.grade_cells:
                task = task_of(cell.name)
                if task is None or task not in scores:
                    continue
                grade = gb.find_grade(cell.name, r.notebook, assignment, r.student)
                grade.auto_score = min(scores[task], cell.max_score)
                written += 1
        gb.db.commit()
    return written
