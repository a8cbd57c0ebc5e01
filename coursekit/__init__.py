"""The course's in-notebook helpers, beside the needle library (which knows nothing of them).

- ``coursekit.hints``: one hint line under a notebook cell's traceback; the grader's causes.
- ``coursekit.reveal``: a reveal's output folded under a summary line.
- ``coursekit.notebook_parts``: notebook 08 takes the student's parts from 04, 05 and 07.
- ``coursekit.trace``: which of needle's own functions a piece of code runs.

Each notebook's setup cell installs the hints: ``from coursekit import hints; hints.install()``.
"""
