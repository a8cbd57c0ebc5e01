"""The untrusted side of grading: code that runs inside the sandboxed worker process.

Only modules in this package (and the probe modules sent to it) are loaded in the worker;
nothing here knows an expected answer. The trusted side (``autograder.runner``) talks to it
through ``protocol`` with values encoded by ``codec``.
"""
