"""nbgrader's Submit, refusing to send an assignment whose every notebook is the release as fetched.

A student who solved the notebooks in one folder and submits another (an untouched copy) would
get the grade of an empty notebook without a word; this says so in the Assignments panel
instead, naming the folder Submit reads. A notebook counts as untouched when every cell the
student fills (nbgrader's ``solution`` cells) has the released source; an assignment where some
notebooks are untouched and others are not is submitted as it is (a student may skip one).

The student's nbgrader_config.py (beside this file) selects it: ``c.ExchangeFactory.submit``.
"""
from __future__ import annotations

import json
import os

from nbgrader.exchange.default.submit import ExchangeSubmit
from nbgrader.utils import find_all_notebooks


def stub_sources(path: str) -> list[str] | None:
    """The sources of the notebook's solution cells, in order; None when it cannot be read."""
    try:
        with open(path, encoding="utf-8") as f:
            cells = json.load(f).get("cells", [])
    except (OSError, ValueError, AttributeError):
        return None
    sources = []
    for cell in cells:
        if isinstance(cell, dict) and cell.get("metadata", {}).get("nbgrader", {}).get("solution"):
            source = cell.get("source", "")
            sources.append("".join(source) if isinstance(source, list) else str(source))
    return sources


def untouched_notebooks(src: str, release: str) -> tuple[list[str], list[str]]:
    """(untouched, compared): the released notebooks found in ``src``, and those of them whose
    solution cells all still hold the released source."""
    untouched, compared = [], []
    for name in find_all_notebooks(release):
        mine = os.path.join(src, name)
        if not os.path.isfile(mine):
            continue
        released = stub_sources(os.path.join(release, name))
        if not released:  # a notebook with nothing to fill tells nothing
            continue
        compared.append(name)
        if stub_sources(mine) == released:
            untouched.append(name)
    return untouched, compared


class CheckedSubmit(ExchangeSubmit):
    def check_filename_diff(self):
        super().check_filename_diff()
        untouched, compared = untouched_notebooks(self.src_path, self.release_path)
        if compared and len(untouched) == len(compared):
            # The panel shows this under a traceback, in a box as wide as its longest line: short lines.
            self.fail(
                "Not submitted: nothing has changed since you fetched it.\n"
                f"Submit sends the notebooks of this folder:\n    {self.src_path}\n"
                "and every '# YOUR CODE HERE' cell there still holds the release's code,\n"
                "so they would be graded as empty. Open them from this folder in\n"
                "JupyterLab's file browser, save your work (File > Save Notebook),\n"
                "then submit again.")
        if untouched:
            self.log.warning("Submitting %s with these notebooks as released (unchanged): %s",
                             self.coursedir.assignment_id, ", ".join(untouched))
