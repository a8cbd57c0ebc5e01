"""Checking suites and tasks before and outside a grading run: ``selfcheck`` validates the hidden
suites against the instructor's notebooks, stubs and mistake fixtures; ``inkernel`` runs a task's
hidden tests in the notebook's own kernel (nbgrader's autograde route, ``check_task``)."""
