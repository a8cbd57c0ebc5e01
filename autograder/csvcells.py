"""Spreadsheet-safe CSV cells: every CSV the grader writes (grades.csv, the exports, the
originality and insights tables) and every one it reads back go through these two."""
from __future__ import annotations

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")  # a spreadsheet runs a cell so begun as a formula


def cell(text: str) -> str:
    """A text cell a spreadsheet will not run as a formula (OWASP's CSV injection advice). A text
    that starts with the quote itself is quoted too, so no two texts give one cell: folders "=x"
    and "'=x" were one student to the LMS export (red team, round 9)."""
    return "'" + text if text[:1] in FORMULA_STARTS + ("'",) else text


def uncell(text: str) -> str:
    """cell's text as it was (the quote it puts before a formula's first character removed):
    for what reads the grader's CSV files back (insights, the exports)."""
    return text[1:] if text[:1] == "'" and text[1:2] in FORMULA_STARTS + ("'",) else text
