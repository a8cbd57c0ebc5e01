"""The hidden suites, validated both ways: the instructor's solutions pass every test, each
task's stub fails every test of that task, and each plausible mistake loses the tests meant
to catch it (while passing others: it is a mistake, not a stub)."""
import pytest

from autograder import selfcheck
from conftest import ASSIGNMENT, NOTEBOOKS, ROOT

MISTAKES = sorted((ROOT / "tests" / "fixtures" / "mistakes").glob("*.py"))


@pytest.mark.parametrize("name", NOTEBOOKS)
def test_solutions_pass_every_hidden_test(name):
    results = selfcheck.check_solutions(ASSIGNMENT, name)
    assert results, f"{name}: the suite has no tests"
    failed = [f"{r.test}: {r.message}" for r in results if r.status != "passed"]
    assert not failed, f"{name}: the solutions fail hidden tests: {failed}"


@pytest.mark.parametrize("name", NOTEBOOKS)
def test_each_stub_fails_every_test_of_its_task(name):
    by_task = selfcheck.check_stubs(ASSIGNMENT, name)
    assert by_task, f"{name}: no tasks found"
    for task, results in by_task.items():
        assert results, f"{name}: task {task} has no hidden tests"
        passing = [r.test for r in results if r.status == "passed"]
        assert not passing, f"{name}: the stub of Task {task} passes {passing}"
        assert all("NotImplementedError" in r.message for r in results), f"Task {task}: a stub's failure should say NotImplementedError"


@pytest.mark.parametrize("path", MISTAKES, ids=lambda p: p.stem)
def test_plausible_mistake_loses_the_test_meant_to_catch_it(path):
    spec, results = selfcheck.check_mistake(ASSIGNMENT, path)
    by_name = {r.test: r for r in results}
    for test in spec["MUST_FAIL"]:
        assert test in by_name, f"{path.name}: no test {test} in the suite"
        assert by_name[test].status == "failed", f"{path.name}: {test} should catch this mistake but passed"
        assert by_name[test].message and "NotImplementedError" not in by_name[test].message
    assert any(r.status == "passed" for r in results), f"{path.name}: a plausible mistake should still pass some tests"


def test_mistake_fixtures_cover_the_required_ones():
    docs = " ".join(selfcheck.load_mistake(p)["doc"].lower() for p in MISTAKES)
    notebooks = {selfcheck.load_mistake(p)["NOTEBOOK"] for p in MISTAKES}
    assert "recursive" in docs
    assert set(NOTEBOOKS) <= notebooks, f"notebooks without a mistake fixture: {sorted(set(NOTEBOOKS) - notebooks)}"


def test_stub_matches_nbgrader_clear_solutions():
    source = "def f(x):\n    \"\"\"doc\"\"\"\n    ### BEGIN SOLUTION\n    return x\n    ### END SOLUTION\n"
    assert selfcheck.stub(source) == "def f(x):\n    \"\"\"doc\"\"\"\n    # YOUR CODE HERE\n    raise NotImplementedError()\n"
