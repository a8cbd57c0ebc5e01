"""Reading a grading folder back: grades.csv's rows, each completed with its task, the test's
description and the hint it gave from the students' results.json. Insights and the LMS exports
read grades through this.
"""
from __future__ import annotations

import csv
import json
from dataclasses import dataclass
from pathlib import Path

from ..csvcells import uncell
from .report import CSV_HEADER, LATE_TEST


class GradesProblem(Exception):
    """grades.csv (or its results.json) is not what the grader writes; the message says why."""


@dataclass
class Row:
    """One test of one student's notebook, from grades.csv completed by results.json."""

    student: str
    assignment: str
    notebook: str
    task: str
    test: str
    score: float
    max_score: float
    status: str
    reason: str = ""
    name: str = ""  # the test's description, as students read it
    message: str = ""  # the hint a failed test gave

    @property
    def passed(self) -> bool:
        return self.status == "passed"

    @property
    def is_test(self) -> bool:
        return self.test != LATE_TEST


def _number(text: str, where: str) -> float:
    try:
        return float(text)
    except ValueError:
        raise GradesProblem(f"{where}: {text!r} is not a number") from None


def read_grades(grades_dir: Path) -> list[Row]:
    """grades.csv's rows, each completed with its task, test name and hint from results.json."""
    path = Path(grades_dir) / "grades.csv"
    if not path.is_file():
        raise GradesProblem(f"{path} does not exist; expected the --out folder of `python -m autograder grade`")
    with path.open(newline="", encoding="utf-8") as f:
        reader = csv.DictReader(f)
        missing = [c for c in CSV_HEADER if c not in (reader.fieldnames or [])]
        if missing:
            raise GradesProblem(f"{path} has no column {', '.join(missing)}; expected the columns {', '.join(CSV_HEADER)}")
        rows = []
        for n, record in enumerate(reader, 2):
            where = f"{path}, line {n}"
            rows.append(Row(
                student=uncell(record["student"]), assignment=uncell(record.get("assignment") or ""),
                notebook=uncell(record["notebook"]), task=uncell(record.get("task") or ""), test=uncell(record["test"]),
                score=_number(record["score"], where), max_score=_number(record["max_score"], where),
                status=uncell(record["status"]), reason=uncell(record.get("reason") or "")))
    details = _test_details(Path(grades_dir), {r.student for r in rows})
    for r in rows:
        task, name, message = details.get((r.student, r.notebook, r.test), ("", "", ""))
        r.task = r.task or task
        r.name = name or r.test
        r.message = "" if r.passed else message
    return rows


def _test_details(grades_dir: Path, students: set[str]) -> dict:
    """(student, notebook, test) -> (task, name, hint), from every results.json under the
    folder (``<student>/results.json``, or one folder deeper per assignment)."""
    details = {}
    for path in sorted(grades_dir.glob("*/results.json")) + sorted(grades_dir.glob("*/*/results.json")):
        student = next((part for part in path.relative_to(grades_dir).parts[:-1] if part in students), None)
        if student is None:
            continue
        try:
            tests = json.loads(path.read_text(encoding="utf-8")).get("tests", [])
        except (OSError, ValueError) as exc:
            raise GradesProblem(f"{path} is not readable JSON ({exc}); expected Gradescope's results.json") from None
        for t in tests:
            extra = t.get("extra_data") or {}
            if {"notebook", "test"} <= extra.keys():
                name = str(t.get("name", "")).rsplit(" · ", 1)[-1]
                details[(student, extra["notebook"], extra["test"])] = (str(extra.get("task", "")), name, str(t.get("output", "")))
    return details
