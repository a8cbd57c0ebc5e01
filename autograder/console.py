"""What the commands print for people: student-supplied text made safe for a terminal, the
instructor's notes, and the one way a command fails on bad input.

Every line the grader's commands print that holds a student-supplied string (a folder name, a
file name, a review flag's quoted code) goes through ``printable``.
"""
from __future__ import annotations

import sys


def printable(text: str, limit: int = 64) -> str:
    """``text`` safe for a terminal: control characters (escape sequences) shown as '?', capped."""
    text = "".join(c if c.isprintable() else "?" for c in text)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def note(text: str) -> None:
    """A note for the instructor on the terminal (stderr), about what will or will not be graded."""
    print(f"note: {text}", file=sys.stderr)


def fail(message: str) -> int:
    """A command's error on bad arguments or input: said on stderr; the exit status 2."""
    print(f"autograder: error: {message}", file=sys.stderr)
    return 2
