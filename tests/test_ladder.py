"""A task declared once, with a ladder: the rung's message (coursekit.ladder), the declaration
(autograder.specification), the release's tasks.json (autograder.check.manifest), one message per
task (the plugin), and the same words in the visible cell and in the grader's report."""
import json
import math

import numpy as np
import pytest

import needle as ndl
from autograder.check import manifest, selfcheck, stated_points
from autograder.plugin import stopped_at
from autograder.results import points_back
from autograder.specification import Task, declare
from coursekit import ladder
from coursekit.ladder import Rung, check, message, plain, plain_or_none, problem
from conftest import LECTURE8, ROOT

ONE = Rung("a leaf", given="x = ndl.Tensor([1.0])", call="count(x)", expect=1)


def test_a_rung_message_names_the_input_the_contract_and_the_value():
    assert message("1.1", 1, ONE, plain(2)) == ("Task 1.1, rung 1 (a leaf): on `x = ndl.Tensor([1.0])`, `count(x)` "
                                                "should be 1; your code gave 2.")
    assert message("1.1", 1, ONE, plain({1})).endswith("your code gave an object of type set.")
    assert message("1.1", 1, ONE, plain(np.int64(1))).endswith("your code gave 1 (a numpy int).")


@pytest.mark.parametrize("value, verdict", [
    (1, ""), (1.0, "type"), (np.int64(1), "type"), (True, "type"), (2, "value"), (None, "type"), ("1", "type")])
def test_an_int_rung_takes_an_int_of_that_value_only(value, verdict):
    assert problem(ONE, plain(value)) == verdict


def test_a_numeric_rung_compares_shape_values_and_the_type_the_contract_names():
    rung = Rung("softmax", given="", call="f()", expect=[[0.5, 0.5]], returns="ndarray")
    assert problem(rung, plain(np.array([[0.5, 0.5]], dtype=np.float32))) == ""
    assert problem(rung, plain(np.array([0.5, 0.5]))) == "shape"
    assert problem(rung, plain(np.array([[0.5, 0.6]]))) == "value"
    assert problem(rung, plain(ndl.Tensor([[0.5, 0.5]]))) == "type"
    assert problem(rung, plain(np.array([[np.nan, 0.5]]))) == "value"
    anything = Rung("any", given="", call="f()", expect=[1.0, 2.0])
    assert problem(anything, plain([1.0, 2.0])) == "" and problem(anything, plain(ndl.Tensor([1.0, 2.0]))) == ""
    shape = message("3.1", 2, rung, plain(np.array([0.5, 0.5])))
    assert "(shape (2,), where the contract gives (1, 2))" in shape


def test_a_dtype_rung_judges_values_first_then_each_dtype():
    rung = Rung("keeps the dtype", given="", call="[f(x32), f(x64)]", expect=[1.5, 1.5], dtype=["float32", "float64"])
    assert problem(rung, plain([np.float32(1.5), np.float64(1.5)])) == ""
    assert problem(rung, plain([np.float64(1.5), np.float64(1.5)])) == "dtype"
    assert problem(rung, plain([np.float32(0.0), np.float64(0.0)])) == "value"  # a trivial answer earns nothing here
    said = message("3.2", 11, rung, plain([np.float64(1.5), np.float64(1.5)]))
    assert said.endswith("(dtype float64, float64, where the contract gives float32, float64).")
    python_float = Rung("a Python float", given="", call="f()", expect=1.0, returns="float")
    assert problem(python_float, plain(1.0)) == problem(python_float, plain(np.float64(1.0))) == ""  # np.float64 is a float
    assert problem(python_float, plain(np.float32(1.0))) == "type"


@pytest.mark.parametrize("forged", [
    "not a dict", {"kind": "str", "value": "x" * 10_000}, {"kind": "int", "value": "1"}, {"kind": "int", "value": 10 ** 30},
    {"kind": "ndarray", "shape": [10 ** 9, 10 ** 9], "value": []}, {"kind": "ndarray", "shape": [2], "value": [1.0, "a"]},
    {"kind": "Tensor", "shape": [1], "value": [1.0], "dtype": "<script>"}, {"kind": "list", "items": [{"kind": "list"}] * 100},
    {"kind": "bool", "value": 1}, {"kind": "object", "name": "NOTE FROM COURSE STAFF"},
])
def test_forged_plain_data_is_judged_as_an_object_or_as_what_it_validly_says(forged):
    got = plain_or_none(forged)
    text = ladder.shown(got)
    assert len(text) < 200 and "NOTE" not in text and "script" not in text and "xxxx" not in text
    assert problem(ONE, got) != ""


def test_plain_data_survives_its_own_validation():
    for value in (1, 2.5, True, None, np.float32(1.5), np.arange(6.0).reshape(2, 3), ndl.Tensor([1.0, 2.0]), [1, (2.0, 3)]):
        assert plain_or_none(plain(value)) == plain(value)


def _manifest(folder, rungs, own_work=()):
    task = Task("9.9", names=["count"], contract="count(x) is 1 for a leaf", own_work=list(own_work), rungs=rungs)
    (folder / ladder.MANIFEST).write_text(json.dumps({"9.9": task.public()}))


def test_the_visible_cell_climbs_the_visible_rungs_and_stops_at_the_first_that_fails(tmp_path, capsys):
    second = Rung("one op", given="x = ndl.Tensor([1.0]); t = x * 2.0", call="count(t)", expect=2)
    hidden = Rung("hidden", given="x = ndl.Tensor([1.0])", call="count(x)", expect=1, visible=False, points=1)
    _manifest(tmp_path, [ONE, second, hidden])
    check("9.9", {"count": lambda t: 1 + len(t.inputs)}, folder=tmp_path)
    assert "the 2 visible rungs pass; the grader also checks: hidden" in capsys.readouterr().out
    with pytest.raises(AssertionError) as failed:
        check("9.9", {"count": lambda t: 1}, folder=tmp_path)
    assert str(failed.value) == message("9.9", 2, second, plain(1))
    with pytest.raises(AssertionError, match=r"rung 1 \(a leaf\).*your code raised ZeroDivisionError"):
        check("9.9", {"count": lambda t: 1 / 0}, folder=tmp_path)
    with pytest.raises(AssertionError, match="`count` is not defined"):
        check("9.9", {}, folder=tmp_path)


def test_the_visible_cell_refuses_needles_own_implementation(tmp_path):
    _manifest(tmp_path, [ONE], own_work=["needle.autograd.graph_node_count"])
    with pytest.raises(AssertionError, match="Task 9.9 must be your own count: it uses needle.autograd.graph_node_count"):
        check("9.9", {"count": ndl.autograd.graph_node_count}, folder=tmp_path)


def test_a_declaration_makes_the_tests_and_own_work_and_keeps_visible_rungs_worth_nothing():
    module: dict = {}
    task = Task("9.9", names=["count"], contract="...", own_work=["needle.autograd.graph_node_count"], rungs=[ONE])

    @task.rung("a deep chain", points=3)
    def test_deep(observe):
        pass

    declare(module, task)
    assert module["OWN_WORK"] == {"9.9": ("count", ["needle.autograd.graph_node_count"])}
    assert [n for n in module if n.startswith("test_")] == ["test_9_9_rung1_a_leaf"] and task.points == 3
    assert task.public()["hidden"] == ["a deep chain"]
    with pytest.raises(ValueError, match="visible and worth 1 points"):
        declare({}, Task("9.8", names=["f"], contract="", rungs=[Rung("r", given="", call="f()", expect=1, points=1)]))
    with pytest.raises(ValueError, match="hidden and worth no points"):
        declare({}, Task("9.8", names=["f"], contract="", rungs=[Rung("r", given="", call="f()", expect=1, visible=False)]))
    hidden = Rung("h", given="", call="f()", expect=1, visible=False, points=1)
    with pytest.raises(ValueError, match="visible after a hidden rung"):  # the cell numbers visible rungs 1, 2, ...
        declare({}, Task("9.8", names=["f"], contract="", rungs=[hidden, Rung("r", given="", call="f()", expect=1)]))


def test_a_task_that_calls_a_failing_task_says_which_rung_of_it_fails(tmp_path):
    """9.2 calls 9.1's answer: when both fail, 9.2's message adds where 9.1 fails (a fact, not a guess)."""
    topo = Task("9.1", names=["order"], contract="", rungs=[Rung("a leaf", given="", call="order()", expect=1)])
    grad = Task("9.2", names=["grad"], contract="", uses=["9.1"],
                rungs=[Rung("one op", given="", call="grad()", expect=2)])
    (tmp_path / ladder.MANIFEST).write_text(json.dumps({"9.1": topo.public(), "9.2": grad.public()}))
    wrong_order = {"order": lambda: 0, "grad": lambda: 0}
    with pytest.raises(AssertionError) as failed:
        check("9.2", wrong_order, folder=tmp_path)
    assert str(failed.value) == (message("9.2", 1, grad.rungs[0], plain(0))
                                 + "\nAlso failing: Task 9.1, rung 1 (a leaf); if Task 9.2 uses your order, fix Task 9.1 first.")
    with pytest.raises(AssertionError) as failed:  # 9.1 right: 9.2's own message only
        check("9.2", {"order": lambda: 1, "grad": lambda: 0}, folder=tmp_path)
    assert str(failed.value) == message("9.2", 1, grad.rungs[0], plain(0))


def test_the_release_carries_the_tasks_the_suites_declare():
    """tasks.json is generated (python -m autograder tasks): the source's and the release's copies
    are what the suites declare today."""
    generated = manifest.text(LECTURE8)
    assert (LECTURE8.source_dir / ladder.MANIFEST).read_text() == generated, "run: python -m autograder tasks lecture8"
    assert (LECTURE8.release_dir / ladder.MANIFEST).read_text() == generated, "run: make release"
    for task in json.loads(generated).values():
        assert all(r["points"] == 0 for r in task["rungs"]) and task["points"] > 0


def test_a_task_has_one_message_from_its_first_failing_rung_in_the_visible_cell_and_the_report_alike():
    path = LECTURE8.mistakes_dir / "count_first_input_only.py"
    spec, results = selfcheck.check_mistake(LECTURE8, path)
    assert stopped_at(results)["1.1"] == "rung 3 (an op of two inputs)"
    failed = [r for r in results if r.task == "1.1" and r.status == "failed"]
    first = [r.message for r in failed if not points_back(r.message)]
    assert len(first) == 1 and len(failed) > 1
    # derived by hand: a + b reaches a and b; following inputs[0] only finds a, so 2 nodes (a, t) where the contract says 3
    assert first[0] == ("Task 1.1, rung 3 (an op of two inputs): on `a = ndl.Tensor([1.0]); b = ndl.Tensor([2.0]); "
                        "t = a + b`, `count_graph_nodes(t)` should be 3; your code gave 2.")
    assert all("the first rung your code fails" in r.message for r in failed if r.message != first[0])
    assert selfcheck.visible_message(LECTURE8, spec["NOTEBOOK"], "1.1", spec["CELLS"]) == first[0]
    assert math.isclose(sum(r.points for r in results if r.task == "1.1"), 9)


@pytest.mark.parametrize("notebook", LECTURE8.notebooks())
def test_every_rung_is_where_some_mistake_fixture_stops(notebook):
    """Fixtures check the ladder: each rung of each declared task is the first failing rung of some
    fixture (its HINT names it, and test_suites checks that the fixture's task message is that
    rung's), so no rung is one that no wrong answer reaches."""
    named = set()
    for path in LECTURE8.mistakes():
        spec = selfcheck.load_mistake(path)
        if spec["NOTEBOOK"] == notebook and spec["HINT"].startswith("Task "):
            named.add(spec["HINT"])
    for task, rungs in manifest.ladders(LECTURE8, notebook).items():
        unreached = [r for r in rungs if f"Task {task}, {r}" not in named]
        assert not unreached, f"Task {task}: no mistake fixture stops at {unreached}"


def test_every_point_total_the_notebooks_and_docs_state_is_the_declarations():
    docs = sorted((ROOT / "docs").glob("*.md")) + [ROOT / "README.md"]
    assert stated_points.problems(LECTURE8, docs) == []


def test_a_stale_point_total_in_prose_is_found():
    tasks = {"3.1": {"points": 10, "notebook": "03"}, "3.2": {"points": 10, "notebook": "03"},
             "3.3": {"points": 12, "notebook": "03"}}
    totals = {"03": 32}
    right = ("Task 3.3 (stretch, 12 points) is the op. Task 3.3 is a stretch task: 12 of the notebook's 32 points "
             "(Tasks 3.1 and 3.2 are worth 10 each). Notebook 03's Task 3.3 (12 of its 32 points) is optional.")
    assert stated_points.statements(right, "t", tasks, totals) == []
    for stale in ("Task 3.3 (stretch, 14 points).", "Task 3.3: 12 of its 30 points.", "Tasks 3.1 and 3.2 (18 points).",
                  "Tasks 3.1 and 3.2 are worth 9 each.", "Task 3.3 is 12 points of 03."):
        assert stated_points.statements(stale, "t", tasks, totals), stale
