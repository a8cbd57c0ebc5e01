"""The student's Jupyter server (make lab, and every student server on the class's hub)."""
import os

c = get_config()  # noqa: F821  (provided by Jupyter)

# The instructor's tools are not the student's.
c.ServerApp.jpserver_extensions = {"nbgrader.server_extensions.formgrader": False}

# JupyterLab's default settings for students (lab-settings/overrides.json): no news pop-up over
# the notebook on first start (nor update checks: a class server may have no internet), and each
# cell's execution times recorded in the notebook (the instructor's `insights` reads them).
c.LabApp.app_settings_dir = os.path.join(os.path.dirname(os.path.abspath(__file__)), "lab-settings")

# A kernel idle for an hour is stopped (its memory freed; the notebook stays, run it again to go
# on), even with its tab open: a class's forgotten kernels otherwise hold the server's memory
# until the hub stops the whole idle server.
c.MappingKernelManager.cull_idle_timeout = 3600
c.MappingKernelManager.cull_interval = 300
c.MappingKernelManager.cull_connected = True

# Ctrl-C stops the server at once (no "Shutdown this Jupyter server (y/[n])?" to answer).
c.ServerApp.answer_yes = True
