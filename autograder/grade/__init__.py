"""Grading submissions: find them, grade each notebook (trusted pytest beside a sandboxed worker),
on this machine or a Dask cluster, or inside Gradescope's container.

``grading.grade_course`` is the pipeline; ``batch`` and ``cluster`` run it in parallel; ``runner``
grades one notebook; ``session`` starts and talks to the sandboxed workers; ``review`` flags
constructs for the instructor; ``hints`` explains a student's raised error; ``deadline`` and
``submissions`` say when and whose.
"""
