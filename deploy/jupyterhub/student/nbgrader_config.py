"""nbgrader configuration of a student of needle-course (the student's side of the exchange).

On the class's JupyterHub every student server reads it (jupyterhub_config.py puts this folder on
JUPYTER_CONFIG_PATH), and so does `make lab`. On a shared machine without a hub, copy it to
~/.jupyter/nbgrader_config.py.
The exchange is $NBGRADER_EXCHANGE (the instructor's, shared by everyone), else nbgrader's
conventional /srv/nbgrader/exchange.
"""
import os

c = get_config()  # noqa: F821  (provided by nbgrader)

c.CourseDirectory.course_id = "needle-course"
c.Exchange.root = os.environ.get("NBGRADER_EXCHANGE") or "/srv/nbgrader/exchange"

# On a hub the student id is the hub's user name (nbgrader would otherwise take the Unix user's,
# which is shared by all users of some spawners).
if os.environ.get("JUPYTERHUB_USER"):
    c.CourseDirectory.student_id = os.environ["JUPYTERHUB_USER"]
