"""nbgrader configuration: `nbgrader generate_assignment lecture8` at the repository root
regenerates course/lecture8/ from solutions/lecture8/ (see `make release`)."""
c = get_config()  # noqa: F821  (provided by nbgrader)

c.CourseDirectory.course_id = "needle-course"
c.CourseDirectory.source_directory = "solutions"
c.CourseDirectory.release_directory = "course"

# Every stub keeps its signature and docstring and raises.
c.ClearSolutions.code_stub = {"python": "# YOUR CODE HERE\nraise NotImplementedError()"}
c.ClearSolutions.enforce_metadata = True

# Autograding (the nbgrader route): a deleted test cell is put back, not silently scored 0.
c.OverwriteCells.add_missing_cells = True
c.Execute.timeout = 300  # seconds per cell; the hidden suites run a 100,000-node graph
