"""What grading produces: one result per test, gathered per notebook."""
from __future__ import annotations

from dataclasses import asdict, dataclass, field


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
    # why it failed, when the cause is the grader's to name: "", "timeout", "own work",
    # "crashed", "not submitted", "error" (infrastructure)
    reason: str = ""

    def as_dict(self) -> dict:
        return asdict(self)


@dataclass
class NotebookResult:
    student: str
    notebook: str  # file stem, e.g. 01_graph_accumulation
    tests: list[TestResult] = field(default_factory=list)
    error: str = ""  # why the notebook could not be (fully) graded; written by the grader
    isolation: dict = field(default_factory=dict)  # what the sandbox enforced (validated)
    # constructs no honest answer needs, found by reading the submission on the trusted side
    # ("cell 3, line 5: raw memory access (__array_interface__)"): for the instructor to review
    review: list = field(default_factory=list)

    @property
    def score(self) -> float:
        return sum(t.score for t in self.tests)

    @property
    def max_score(self) -> float:
        return sum(t.points for t in self.tests)

    def as_dict(self) -> dict:
        return {"student": self.student, "notebook": self.notebook, "error": self.error,
                "isolation": self.isolation, "review": list(self.review), "tests": [t.as_dict() for t in self.tests]}

    @classmethod
    def from_dict(cls, data: dict) -> "NotebookResult":
        return cls(data["student"], data["notebook"], [TestResult(**t) for t in data["tests"]],
                   data["error"], data.get("isolation", {}), list(data.get("review", [])))
