"""nbgrader configuration of an instructor's server on the class's JupyterHub.

The server starts in the instructor's home, so formgrader would take that for the course root:
point it at $NEEDLE_COURSE_ROOT (set by jupyterhub_config.py) and load that course's own
nbgrader_config.py (course id, source and release folders, the exchange).
"""
import os

c = get_config()  # noqa: F821  (provided by nbgrader)

c.CourseDirectory.root = os.environ["NEEDLE_COURSE_ROOT"]
load_subconfig(os.path.join(os.environ["NEEDLE_COURSE_ROOT"], "nbgrader_config.py"))  # noqa: F821
