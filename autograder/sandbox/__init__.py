"""The untrusted side of grading: code that runs inside the sandboxed worker process.

The worker loads this package, what it shares with the trusted side (``autograder.plaindata``,
``autograder.notebook``'s magics filter, ``autograder.probing``), needle, and the probe modules
sent to it; nothing here knows an expected answer. The trusted side (``autograder.grade.session``)
talks to it through ``protocol`` with values encoded by ``plaindata``.
"""
