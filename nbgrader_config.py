"""nbgrader configuration of the course (the instructor's side).

`nbgrader generate_assignment lecture8` at the repository root regenerates course/lecture8/ from
solutions/lecture8/ (see `make release`). The exchange (release, submit, collect, feedback) is
course-local: <this folder>/nbgrader/exchange, created by `make setup` (git-ignored). On a shared
server point every user at one exchange with the environment variable NBGRADER_EXCHANGE, e.g.
NBGRADER_EXCHANGE=/srv/nbgrader/exchange (a folder with mode 1777, as nbgrader requires).
Students' side of the exchange: deploy/jupyterhub/student/nbgrader_config.py.
"""
import os
import shutil
import sys
from pathlib import Path

c = get_config()  # noqa: F821  (provided by nbgrader)

c.CourseDirectory.course_id = "needle-course"
c.CourseDirectory.source_directory = "solutions"
c.CourseDirectory.release_directory = "course"

# The exchange: course-local unless NBGRADER_EXCHANGE names a shared one.
c.Exchange.root = os.environ.get("NBGRADER_EXCHANGE") or str(Path(__file__).resolve().parent / "nbgrader" / "exchange")

# nbgrader runs `alembic` from PATH when it creates gradebook.db; started as .venv/bin/jupyter or
# .venv/bin/nbgrader without the venv on PATH, it would leave a gradebook.db without an
# alembic_version table. Use the alembic installed beside this Python.
_alembic = Path(sys.executable).parent / "alembic"
if shutil.which("alembic") is None and _alembic.exists():
    os.environ["PATH"] = f"{_alembic.parent}{os.pathsep}{os.environ.get('PATH', '')}"

# Every stub keeps its signature and docstring and raises.
c.ClearSolutions.code_stub = {"python": "# YOUR CODE HERE\nraise NotImplementedError()"}
c.ClearSolutions.enforce_metadata = True

# Autograding (the nbgrader route): a deleted test cell is put back, not silently scored 0.
c.OverwriteCells.add_missing_cells = True
c.Execute.timeout = 300  # seconds per cell; the hidden suites run a 100,000-node graph


# nbgrader's own feedback renders the autograded notebooks, hidden tests included: refuse it.
# Students get the grader's feedback page instead. The refusal must come before nbgrader touches
# feedback/<student>/<assignment>/, where the grader's pages already wait for release_feedback:
# GenerateFeedback.start() builds its exporter after only reading autograded/ and before
# init_destination (which deletes that folder with --force, as formgrader always passes, or when
# a submission is newer) and before a failed conversion's clean-up (which deletes it too).
# Building this exporter is that refusal, for `nbgrader generate_feedback` and formgrader alike.
def _refuse_nbgrader_feedback():
    from nbconvert.exporters import HTMLExporter
    from nbgrader.converters import NbGraderException

    class UseTheGradersFeedback(HTMLExporter):
        def __init__(self, *args, parent=None, **kwargs):
            assignment = getattr(getattr(parent, "coursedir", None), "assignment_id", "") or "<assignment>"
            message = ("needle-course: nbgrader's generate_feedback would show students the hidden tests; nothing was "
                       "changed. Use the grader's feedback instead (in the course root): "
                       "python -m autograder grade . --out grades --gradebook, then "
                       f"python -m autograder nbgrader-feedback . --from grades --assignment {assignment}, then "
                       f"nbgrader release_feedback {assignment}")
            if parent is not None:
                parent.log.error(message)
            raise NbGraderException(message)

    return UseTheGradersFeedback


c.GenerateFeedback.exporter_class = _refuse_nbgrader_feedback()
