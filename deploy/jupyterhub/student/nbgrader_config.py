"""nbgrader configuration of a student of needle-course (the student's side of the exchange).

On the class's JupyterHub every student server reads it (jupyterhub_config.py puts this folder on
JUPYTER_CONFIG_PATH), and so does `make lab`. On a shared machine without a hub, copy this folder's
files to ~/.jupyter/.
The exchange is $NBGRADER_EXCHANGE (the instructor's, shared by everyone), else nbgrader's
conventional /srv/nbgrader/exchange.
"""
import os
import sys

c = get_config()  # noqa: F821  (provided by nbgrader)

c.CourseDirectory.course_id = "needle-course"
c.Exchange.root = os.environ.get("NBGRADER_EXCHANGE") or "/srv/nbgrader/exchange"

# Fetch, Submit and Fetch Feedback use the folder JupyterLab serves. The Assignments panel loads
# this file first from inside the served folder, then changes to the assignment folder it read
# here; nbgrader's own default (".") would be read then from the server's start folder, so an
# assignment would land outside the file browser and Submit would send that copy. From a
# terminal, the folder the command runs in, as nbgrader's default.
c.Exchange.assignment_dir = os.getcwd()

# Submit refuses an assignment whose every notebook is the release as fetched (submit_check.py).
_here = os.path.dirname(os.path.abspath(__file__))
if _here not in sys.path:
    sys.path.insert(0, _here)
c.ExchangeFactory.submit = "submit_check.CheckedSubmit"

# On a hub the student id is the hub's user name (nbgrader would otherwise take the Unix user's,
# which is shared by all users of some spawners).
if os.environ.get("JUPYTERHUB_USER"):
    c.CourseDirectory.student_id = os.environ["JUPYTERHUB_USER"]
