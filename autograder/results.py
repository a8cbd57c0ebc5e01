"""What grading produces: one result per test, gathered per notebook."""
from __future__ import annotations

from dataclasses import asdict, dataclass, field

# Reasons the grader names (TestResult.reason, grades.csv's reason column); the sandbox adds
# "raised", "timeout", "own work", "crashed", "missing", "unencodable", "disk", "error", and
# "review" marks a notebook flagged for review.
NOT_SUBMITTED = "not submitted"
LATE = "late"
REVIEW = "review"
# How a notebook an error of the grader's own left ungraded is marked (its error starts so): its zeros
# say nothing of the student's work, so the gradebook keeps what it had.
INFRASTRUCTURE = "internal grading error"


FAILS_TOO = "fails too; the message is that of"  # a later rung of a task whose first failing rung has the message


def points_back(message: str) -> bool:
    """Is this a later failing rung's message, which points to the first failing rung's?"""
    return FAILS_TOO in message.partition("\n")[0]


@dataclass
class TestResult:
    __test__ = False  # not a pytest test class

    test: str  # the test function's name (stable id)
    name: str  # what the student reads: the test's docstring
    task: str
    points: float
    score: float
    status: str  # passed, failed
    message: str
    # why it failed, when the cause is the grader's to name: "", "raised", "timeout", "own work",
    # "crashed", "missing", "unencodable", "disk", "not submitted", "error" (infrastructure), "review"
    reason: str = ""

    def as_dict(self) -> dict:
        return asdict(self)


@dataclass
class NotebookResult:
    student: str
    notebook: str  # file stem, e.g. 01_graph_accumulation
    tests: list[TestResult] = field(default_factory=list)  # in the suite's order: basic to advanced
    error: str = ""  # why the notebook could not be (fully) graded; written by the grader
    isolation: dict = field(default_factory=dict)  # what the sandbox enforced (validated)
    # constructs no honest answer needs, found by reading the submission on the trusted side
    # ("cell 3, line 5: raw memory access (__array_interface__)"): for the instructor to review
    review: list = field(default_factory=list)
    assignment: str = ""
    submitted_at: str = ""  # when it was submitted (ISO 8601, UTC); "" when unknown
    late_seconds: float = 0.0  # how long after the due date it was submitted (0: on time, or no due date)
    penalty: float = 0.0  # the points the late policy takes, never more than the tests earned

    @property
    def raw_score(self) -> float:
        return sum(t.score for t in self.tests)

    @property
    def score(self) -> float:
        return self.raw_score - self.penalty

    @property
    def max_score(self) -> float:
        return sum(t.points for t in self.tests)

    @property
    def grader_error(self) -> bool:
        """Left ungraded by an error of the grader's own (retried, still failing), not the student's."""
        return self.error.startswith(INFRASTRUCTURE)

    @property
    def not_submitted(self) -> bool:
        return bool(self.tests) and all(t.reason == NOT_SUBMITTED for t in self.tests)

    def as_dict(self) -> dict:
        return {"student": self.student, "notebook": self.notebook, "assignment": self.assignment, "error": self.error,
                "isolation": self.isolation, "review": list(self.review), "submitted_at": self.submitted_at,
                "late_seconds": self.late_seconds, "penalty": self.penalty, "tests": [t.as_dict() for t in self.tests]}

    @classmethod
    def from_dict(cls, data: dict) -> "NotebookResult":
        return cls(data["student"], data["notebook"], [TestResult(**t) for t in data["tests"]],
                   data["error"], data.get("isolation", {}), list(data.get("review", [])), data.get("assignment", ""),
                   data.get("submitted_at", ""), float(data.get("late_seconds", 0.0)), float(data.get("penalty", 0.0)))


def task_key(task: str) -> tuple:
    """Tasks in their numeric order (1.2 before 1.10), then by name: the one task ordering of the
    reports, insights and the originality report."""
    return tuple(int(x) if x.isdigit() else 0 for x in task.split(".")) + (task,)


def isolation_summary(results: list[NotebookResult]) -> str:
    """One line on what the sandbox enforced in every worker (a layer missing in any is named)."""
    reports = [r.isolation for r in results if r.isolation]
    if not reports:
        return "isolation: no worker was started"

    def everywhere(key: str) -> bool:
        return all(report.get(key) is True for report in reports)

    abi = min(report.get("landlock", 0) for report in reports)
    parts = [
        f"Landlock ABI {abi}" if abi else "NO Landlock (files readable)",
        "seccomp" if everywhere("seccomp") else "NO seccomp (threads, processes, signal handlers allowed)",
        "unprivileged user" if everywhere("unprivileged") else "NO unprivileged user",
        "private tmpfs scratch" if everywhere("private_scratch") else "shared scratch (watched)",
        "needle's task implementation removed per task, CPU-time budgets, resource limits, own session, clean environment",
    ]
    return "isolation: " + ", ".join(parts)
