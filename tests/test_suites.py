"""The hidden suites, validated both ways: the instructor's solutions pass every test, each
task's stub fails every test of that task, and each plausible mistake loses the tests meant
to catch it (while passing others: it is a mistake, not a stub); a suite's ACCEPTED answers
(correct, but not the solution's way) keep full marks."""
import pytest

from autograder.check import selfcheck
from autograder.results import points_back
from conftest import ASSIGNMENTS, LECTURE8, NOTEBOOKS, notebook_id

MISTAKES = [(a, path) for a in ASSIGNMENTS for path in a.mistakes()]


ACCEPTED = [(a, n, k, c) for a, n in NOTEBOOKS for k, c in selfcheck.accepted(a, n).items()]


@pytest.mark.parametrize("assignment, name", NOTEBOOKS, ids=map(notebook_id, NOTEBOOKS))
def test_solutions_pass_every_hidden_test(assignment, name):
    failed = selfcheck.check_solutions(assignment, name)
    assert not failed, f"{name}: the solutions fail hidden tests: {failed}"
    assert not selfcheck.check_cells(assignment, name)


@pytest.mark.parametrize("assignment, name", NOTEBOOKS, ids=map(notebook_id, NOTEBOOKS))
def test_every_hidden_test_is_one_a_mistake_must_fail(assignment, name):
    """A test that cannot fail is a defect, and a stub cannot show it (it raises first)."""
    assert not selfcheck.never_failing(assignment, name)


@pytest.mark.parametrize("assignment, name", NOTEBOOKS, ids=map(notebook_id, NOTEBOOKS))
def test_each_stub_fails_every_test_of_its_task(assignment, name):
    by_task = selfcheck.check_stubs(assignment, name)
    assert by_task, f"{name}: no tasks found"
    for task, results in by_task.items():
        assert results, f"{name}: task {task} has no hidden tests"
        passing = [r.test for r in results if r.status == "passed"]
        assert not passing, f"{name}: the stub of Task {task} passes {passing}"
        # one message per task: the first failing rung names the stub's NotImplementedError, the
        # later rungs point back to it
        first = [r for r in results if not points_back(r.message)]
        assert len(first) == 1, f"Task {task}: one message, not {[r.message for r in first]}"
        assert "NotImplementedError" in first[0].message, f"Task {task}: a stub's failure should say NotImplementedError"


@pytest.mark.parametrize("assignment, path", MISTAKES, ids=[f"{a.name}/{p.stem}" for a, p in MISTAKES])
def test_plausible_mistake_loses_the_test_meant_to_catch_it(assignment, path):
    spec, results = selfcheck.check_mistake(assignment, path)
    by_name = {r.test: r for r in results}
    for test in selfcheck.must_fail(spec, results):
        assert test in by_name, f"{path.name}: no test {test} in the suite"
        assert by_name[test].status == "failed", f"{path.name}: {test} should catch this mistake but passed"
        assert by_name[test].message and "the stub is not implemented yet" not in by_name[test].message
    if set(selfcheck.must_fail(spec, results)) != {t for t, r in by_name.items() if r.points > 0}:  # unless meant to lose every point
        assert any(r.status == "passed" for r in results), f"{path.name}: a plausible mistake should still pass some tests"
    assert not selfcheck.hint_problems(spec, results), "one mistake, one hint"
    assert not selfcheck.full_marks_when_wrong(spec, results), "a wrong answer never keeps all its task's points"
    from autograder.plugin import MESSAGE_LIMIT  # a message is never cut short (its diagnosis comes last)

    assert all(len(r.message) < MESSAGE_LIMIT for r in results), max((r.message for r in results), key=len)


@pytest.mark.parametrize("assignment, path", [(a, p) for a, p in MISTAKES if selfcheck.load_mistake(p)["VISIBLE"]],
                         ids=[f"{a.name}/{p.stem}" for a, p in MISTAKES if selfcheck.load_mistake(p)["VISIBLE"]])
def test_visible_tests_catch_the_mistake_with_its_hint(assignment, path):
    from autograder.course import task_of

    spec = selfcheck.load_mistake(path)
    messages = [selfcheck.visible_message(assignment, spec["NOTEBOOK"], task, spec["CELLS"])
                for task in sorted({task_of(gid) for gid in spec["CELLS"]})]
    assert any(spec["HINT"] in m for m in messages), f"{path.name}: the visible tests say {messages}"


@pytest.mark.parametrize("assignment, path", MISTAKES, ids=[f"{a.name}/{p.stem}" for a, p in MISTAKES])
def test_every_mistake_declares_its_hint(assignment, path):
    spec = selfcheck.load_mistake(path)
    assert spec["HINT"], f"{path.name}: declare HINT, the words every failed test's message must contain"
    assert spec["doc"], f"{path.name}: say in its docstring what the mistake is"


@pytest.mark.parametrize("assignment, name, key, cells", ACCEPTED, ids=[f"{n}/{k}" for _, n, k, _ in ACCEPTED])
def test_accepted_answers_keep_full_marks(assignment, name, key, cells):
    assert selfcheck.check_accepted(assignment, name, cells) == ""


def test_mistake_fixtures_cover_the_required_ones():
    specs = [selfcheck.load_mistake(p) for p in LECTURE8.mistakes()]
    assert "recursive" in " ".join(s["doc"].lower() for s in specs)
    covered = {s["NOTEBOOK"] for s in specs}
    assert set(LECTURE8.notebooks()) <= covered, f"notebooks without a mistake fixture: {sorted(set(LECTURE8.notebooks()) - covered)}"


def test_stub_matches_nbgrader_clear_solutions():
    source = "def f(x):\n    \"\"\"doc\"\"\"\n    ### BEGIN SOLUTION\n    return x\n    ### END SOLUTION\n"
    assert selfcheck.stub(source) == "def f(x):\n    \"\"\"doc\"\"\"\n    # YOUR CODE HERE\n    raise NotImplementedError()\n"


def _built_with_ops(graph: dict):
    """The graph of one of 01's descriptions as needle's ops build it (the probe puts it together
    without them): its output."""
    import needle as ndl

    if "naive_loop" in graph:
        w, grad = ndl.Tensor([1.0, 2.0]), ndl.Tensor([0.5, 0.5], requires_grad=False)
        for _ in range(graph["naive_loop"]):
            w = w + (-0.1) * grad
        return w
    if "ladder" in graph:
        prev, cur = ndl.Tensor([1.0]), ndl.Tensor([1.0])
        for _ in range(graph["ladder"]):
            prev, cur = cur, cur + prev
        return cur
    ops = {"add": lambda a, b: a + b, "mul": lambda a, b: a * b, "scale": lambda a: a * 1.5, "shift": lambda a: a + 1.0}
    built = []
    for kind, *args in graph["nodes"]:
        if kind == "one":
            built.append(ndl.Tensor([1.0]))
        elif kind in ("leaf", "const"):
            built.append(ndl.Tensor([float(len(built) % 7) - 3.0], requires_grad=kind == "leaf"))
        elif kind == "detach":
            built.append(built[args[0]].detach())
        else:
            built.append(ops[kind](*(built[i] for i in args)))
    return built[-1]


def test_01s_graphs_are_those_needles_ops_build_node_for_node():
    """01's probes put each graph together from a table, in a random order and without needle's
    ops: it must be the graph needle's ops build from the same description, node for node (class,
    op and its scalar, inputs, requires_grad, values and dtype, arrays shared where they are)."""
    import numpy as np

    from autograder.suite import load_probes

    probes = load_probes(str(LECTURE8.suite("01_graph_accumulation")))
    graphs = [{"naive_loop": n} for n in (1, 7, 2_000)] + [{"ladder": n} for n in (1, 12)] + [
        {"nodes": [["leaf"], ["const"], ["one"], ["one"], ["scale", 1], ["shift", 0], ["mul", 2, 3], ["add", 4, 5],
                   ["detach", 5], ["mul", 6, 8], ["add", 7, 9]]},
        {"nodes": [["leaf"], ["detach", 0], ["add", 0, 1]]}]
    for graph in graphs:
        want, (got, nodes) = _built_with_ops(graph), probes.build(graph)
        pairs, stack, data_of = {}, [(want, got)], {}
        while stack:
            a, b = stack.pop()
            if id(a) in pairs:
                assert pairs[id(a)] is b, graph
                continue
            pairs[id(a)] = b
            assert type(a) is type(b) and type(a.op) is type(b.op) and a.requires_grad == b.requires_grad, graph
            assert getattr(a.op, "scalar", None) == getattr(b.op, "scalar", None) and b.grad is None, graph
            assert a.numpy().dtype == b.numpy().dtype and np.array_equal(a.numpy(), b.numpy()), graph
            assert data_of.setdefault(id(a.cached_data), id(b.cached_data)) == id(b.cached_data), graph  # shared alike
            assert len(a.inputs) == len(b.inputs), graph
            stack.extend(zip(a.inputs, b.inputs))
        # every node of the description is made (those no op keeps too, as needle's eager mode makes them)
        assert {id(v) for v in pairs.values()} <= {id(v) for v in nodes} and len(nodes) == len(probes.table(graph)), graph


def test_a_fixture_that_patches_needle_leaves_the_next_one_unpatched():
    """selfcheck runs the fixtures in its own process: what one cell sets on needle (here its live
    tensor count, replaced by a constant) is put back before the next fixture runs."""
    import needle as ndl

    count = ndl.autograd.live_tensor_count
    patcher = next(p for p in LECTURE8.mistakes() if p.stem == "train_fixed_hides_leak_from_count")
    selfcheck.check_mistake(LECTURE8, patcher)
    assert ndl.autograd.live_tensor_count is count
    leak = next(p for p in LECTURE8.mistakes() if p.stem == "train_leak_until_epoch_end")
    spec = selfcheck.load_mistake(leak)
    assert spec["HINT"] in selfcheck.visible_message(LECTURE8, "02_detach", "2.3", spec["CELLS"])


@pytest.mark.parametrize("assignment, path", [(a, p) for a, p in MISTAKES if selfcheck.load_mistake(p)["VISIBLE"]],
                         ids=[f"{a.name}/{p.stem}" for a, p in MISTAKES if selfcheck.load_mistake(p)["VISIBLE"]])
def test_the_visible_cell_and_the_report_say_the_same_words(assignment, path):
    """A mistake the visible cell catches gets, for its task, the report's message word for word
    (the rung's input, expected and got; when the code raised, the same hint, and no word of the
    exception's own text, which the grader does not trust)."""
    from autograder.course import task_of

    spec, results = selfcheck.check_mistake(assignment, path)
    for task in sorted({task_of(gid) for gid in spec["CELLS"]}):
        visible = selfcheck.visible_message(assignment, spec["NOTEBOOK"], task, spec["CELLS"])
        first = [r.message for r in results if r.task == task and r.status != "passed" and not points_back(r.message)]
        if visible and first and first[0].startswith(visible.partition(":")[0] + ":"):  # both stop at that rung
            if "RecursionError" in visible:  # the line where the limit struck depends on the stack below the call
                continue
            assert first[0] == visible, (first[0], visible)
