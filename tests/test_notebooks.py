"""The course notebooks: valid, without outputs, executable, released correctly by nbgrader."""
import json
import re
import shutil

import nbformat
import pytest
from nbclient import NotebookClient
from nbclient.exceptions import CellExecutionError

from autograder.check.selfcheck import stub
from autograder.course import task_of
from autograder.suiterun import collect_tests
from conftest import ASSIGNMENTS, LECTURE8, NOTEBOOKS, ROOT, notebook_id
from kernels import run_notebook

EXPECTED = [
    "01_graph_accumulation", "02_detach", "03_stable_softmax", "04_module_parameters", "05_optimizer_training",
    "06_tensor_tuple", "07_init_variance", "08_train_digits", "09_backward", "10_op_gradients",
]


def test_all_lecture8_segments_exist():
    assert LECTURE8.notebooks() == EXPECTED
    assert sorted(p.stem for p in LECTURE8.release_dir.glob("*.ipynb")) == EXPECTED


@pytest.mark.parametrize("assignment", ASSIGNMENTS, ids=lambda a: a.name)
def test_every_notebook_has_its_suite_probes_and_release(assignment):
    for notebook in assignment.notebooks():
        assert assignment.suite(notebook).is_file(), f"no hidden suite {assignment.suite(notebook)}"
        assert assignment.probes(notebook).is_file(), f"no probes {assignment.probes(notebook)}"
        assert assignment.released_notebook(notebook).is_file(), f"{notebook} is not released: run `make release`"


def all_notebooks_in_git():
    return sorted(ROOT.glob("solutions/**/*.ipynb")) + sorted(ROOT.glob("course/**/*.ipynb"))


@pytest.mark.parametrize("path", all_notebooks_in_git(), ids=lambda p: str(p.relative_to(ROOT)))
def test_notebook_valid_and_without_outputs(path):
    nb = nbformat.read(path, as_version=4)
    nbformat.validate(nb)
    for cell in nb.cells:
        if cell.cell_type == "code":
            assert cell.outputs == [] and cell.execution_count is None, f"{path.name}: a code cell carries outputs"


def _cells(assignment, name, released=False):
    path = assignment.released_notebook(name) if released else assignment.source_notebook(name)
    return nbformat.read(path, as_version=4).cells


def _grade_meta(cell):
    return cell.metadata.get("nbgrader", {})


@pytest.mark.parametrize("assignment, name", NOTEBOOKS, ids=map(notebook_id, NOTEBOOKS))
def test_task_markers_and_points_match_the_suite(assignment, name):
    cells = _cells(assignment, name)
    suite_points = {}
    for _, _, task, points in collect_tests(assignment.suite(name)):
        suite_points[task] = suite_points.get(task, 0) + points
    tested = {}
    for cell in cells:
        meta = _grade_meta(cell)
        task = task_of(meta.get("grade_id", ""))
        if cell.cell_type == "markdown":
            continue  # written answers (see test_predict_then_see) are not tasks
        if meta.get("solution"):
            assert task, f"solution cell {meta['grade_id']!r} must be named task<N>_<M>_<what>"
            assert f"Task {task}" in cell.source, f"{meta['grade_id']}: the stub's docstring must carry 'Task {task}'"
        if meta.get("grade"):
            assert task, f"test cell {meta.get('grade_id')} must be named task<N>_<M>_tests"
            assert cell.source.lstrip().startswith(f"# Task {task}"), f"{meta['grade_id']} must start with '# Task {task}'"
            assert meta.get("locked") is True
            assert f'check_task("{task}", globals())' in cell.source, (
                f"{meta['grade_id']}: its hidden block must run check_task(\"{task}\", globals()), its own task's tests")
            tested[task] = meta["points"]
    assert tested == suite_points, "each test cell's points must equal the sum of its task's hidden test points"
    headings = "\n".join(c.source for c in cells if c.cell_type == "markdown")
    for task in tested:
        assert re.search(rf"^#+ .*Task {re.escape(task)}\b", headings, re.MULTILINE), f"no markdown heading for Task {task}"


def _written_answer(cell) -> bool:
    """An nbgrader manually graded answer: a markdown solution cell, worth 0 points by default."""
    meta = _grade_meta(cell)
    return cell.cell_type == "markdown" and meta.get("solution") is True and meta.get("grade") is True


@pytest.mark.parametrize("assignment, name", NOTEBOOKS, ids=map(notebook_id, NOTEBOOKS))
def test_predict_then_see(assignment, name):
    """Every check-your-understanding reveal (a code cell tagged "reveal") starts collapsed and
    comes after a written-answer cell of its own: the student answers before seeing."""
    cells = _cells(assignment, name)
    reveals = [i for i, c in enumerate(cells) if "reveal" in c.metadata.get("tags", [])]
    assert reveals, f"{name}: no check-your-understanding reveal cell (tag 'reveal')"
    previous = -1
    for i in reveals:
        cell = cells[i]
        assert cell.cell_type == "code" and cell.metadata.get("jupyter", {}).get("source_hidden") is True, (
            f"{name}: reveal cell {i} must be a code cell that starts collapsed (jupyter.source_hidden)")
        answers = [c for c in cells[previous + 1:i] if _written_answer(c)]
        assert answers, f"{name}: reveal cell {i} has no written-answer cell before it"
        for answer in answers:
            assert _grade_meta(answer).get("points") == 0, f"{name}: written answers are worth 0 points by default"
        previous = i
    for cell in _cells(assignment, name, released=True):
        if _written_answer(cell):
            assert "YOUR ANSWER HERE" in cell.source, f"{name}: a written answer was released with its model answer"


@pytest.mark.parametrize("assignment, name", NOTEBOOKS, ids=map(notebook_id, NOTEBOOKS))
def test_course_kernel_and_time_budget(assignment, name):
    nb = nbformat.read(assignment.source_notebook(name), as_version=4)
    assert nb.metadata.kernelspec.name == "needle-course", f"{name}: select the course's kernel (make setup registers it)"
    intro = nb.cells[0].source
    # a measured time: "about 45 to 60 minutes", "about 1 to 1.3 hours" (issue 21: times at a
    # student's pace); a notebook nobody has timed yet says so rather than guess.
    measured = re.search(r"[Aa]bout [\d.]+( to [\d.]+)? (minutes|hours?)\b", intro)
    assert measured or "not yet timed at a student's pace" in intro, f"{name}: the intro must say how long it takes"


@pytest.mark.parametrize("assignment, name", NOTEBOOKS, ids=map(notebook_id, NOTEBOOKS))
def test_setup_cell_checks_the_environment(assignment, name):
    first_code = next(c for c in _cells(assignment, name) if c.cell_type == "code")
    assert "setup" in first_code.metadata.get("tags", [])
    assert "import needle" in first_code.source and "make setup" in first_code.source
    assert "needle-course" in first_code.source, "the message must name the kernel to choose (needle-course)"
    assert "sys.path" not in "".join(c.source for c in _cells(assignment, name))


@pytest.mark.parametrize("assignment, name", NOTEBOOKS, ids=map(notebook_id, NOTEBOOKS))
def test_release_has_stubs_and_no_solutions_or_hidden_tests(assignment, name):
    source = {(_grade_meta(c).get("grade_id") or c.get("id")): c for c in _cells(assignment, name)}
    for cell in _cells(assignment, name, released=True):
        text = cell.source
        assert "### BEGIN SOLUTION" not in text and "### END SOLUTION" not in text
        assert "HIDDEN TESTS" not in text and "check_task" not in text and "autograder" not in text
        meta = _grade_meta(cell)
        if meta.get("solution") and cell.cell_type == "code":
            original = source[meta["grade_id"]].source
            assert "### BEGIN SOLUTION" in original
            assert text == stub(original), f"{meta['grade_id']}: the release must be exactly the stubbed solution cell"
            assert "raise NotImplementedError()" in text


@pytest.mark.parametrize("assignment", ASSIGNMENTS, ids=lambda a: a.name)
def test_release_is_in_sync_with_nbgrader(assignment, release_of):
    """course/ is exactly what `nbgrader generate_assignment` makes from solutions/ now."""
    root = release_of(assignment)
    for name in assignment.notebooks():
        fresh = json.loads((root / "course" / assignment.name / f"{name}.ipynb").read_text())
        committed = json.loads(assignment.released_notebook(name).read_text())
        for nb in (fresh, committed):  # JupyterLab adds it when a notebook is opened and saved
            nb["metadata"].pop("language_info", None)
        assert fresh == committed, f"course/{assignment.name}/{name}.ipynb is stale: run `make release ASSIGNMENT={assignment.name}` and commit"


def _execute(nb, cwd, folder=None):
    """Run ``nb`` in ``cwd``, with the tasks.json of ``folder`` (the notebook's own) beside it, as
    the visible cells' check("N.M") reads it there."""
    if folder is not None:
        shutil.copy(folder / "tasks.json", cwd / "tasks.json")
    return run_notebook(nb, cwd)


@pytest.mark.slow
def test_a_kernel_whose_port_was_taken_starts_again_on_new_ports(tmp_path, monkeypatch):
    """The first kernel is given a port another socket holds, as a kernel started at the same moment
    by another test process can: it dies at start, and run_notebook starts one on new ports."""
    import socket

    taken = socket.socket()
    taken.bind(("127.0.0.1", 0))
    taken.listen()
    made = []
    create = NotebookClient.create_kernel_manager

    def first_on_a_taken_port(client):
        km = create(client)
        if not made:
            km.cache_ports = False  # else jupyter_client picks every port itself
            km.ip, km.shell_port = "127.0.0.1", taken.getsockname()[1]
        made.append(km)
        return km

    monkeypatch.setattr(NotebookClient, "create_kernel_manager", first_on_a_taken_port)
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("print(6 * 7)")])
    try:
        run_notebook(nb, tmp_path, timeout=60)
    finally:
        taken.close()
    assert len(made) == 2 and nb.cells[0].outputs[0]["text"] == "42\n"


@pytest.mark.slow
@pytest.mark.parametrize("assignment, name", NOTEBOOKS, ids=map(notebook_id, NOTEBOOKS))
def test_solution_notebook_runs_clean_with_hidden_tests(assignment, name, tmp_path):
    nb = nbformat.read(assignment.source_notebook(name), as_version=4)
    _execute(nb, tmp_path, assignment.source_dir)
    text = []
    for cell in nb.cells:
        for out in cell.get("outputs", []):
            assert out.output_type != "error", f"{name}: {out.ename}: {out.evalue}"
            if out.output_type == "stream":
                assert out.name == "stdout" or "Warning" not in out.text, f"{name}: warning output: {out.text[:300]}"
                text.append(out.text)
    printed = "".join(text)
    for task in {task_of(_grade_meta(c).get("grade_id", "")) for c in nb.cells if _grade_meta(c).get("grade") and c.cell_type == "code"}:
        assert re.search(rf"Task {re.escape(task)}: the \d+ visible rungs pass", printed), f"Task {task}: {printed[-300:]}"
        assert re.search(rf"Task {re.escape(task)}: hidden tests (\d+)/\1 passed", printed), f"hidden tests of Task {task} did not all pass"


@pytest.mark.slow
@pytest.mark.parametrize("assignment, name", NOTEBOOKS, ids=map(notebook_id, NOTEBOOKS))
def test_released_notebook_runs_until_its_first_stub(assignment, name, tmp_path):
    nb = nbformat.read(assignment.released_notebook(name), as_version=4)
    first_stub = next(i for i, c in enumerate(nb.cells) if _grade_meta(c).get("solution"))
    with pytest.raises(CellExecutionError) as err:
        _execute(nb, tmp_path, assignment.release_dir)
    assert "NotImplementedError" in str(err.value), f"{name}: the first error is not the stub's: {str(err.value)[-500:]}"
    failing = next(i for i, c in enumerate(nb.cells) if any(o.output_type == "error" for o in c.get("outputs", [])))
    assert failing > first_stub, f"{name}: cell {failing} fails before the first stub"
    for cell in nb.cells[:failing]:
        assert not any(o.output_type == "error" for o in cell.get("outputs", []))


@pytest.mark.parametrize("assignment, name", NOTEBOOKS, ids=map(notebook_id, NOTEBOOKS))
def test_reveals_fold_what_they_show(assignment, name):
    """Every reveal cell runs under coursekit.reveal's `with reveal(...)`: Run All puts no answer on
    screen unfolded."""
    for i, cell in enumerate(_cells(assignment, name)):
        if "reveal" in cell.metadata.get("tags", []):
            assert re.search(r"^with reveal\(", cell.source, re.MULTILINE), (
                f"{name}: reveal cell {i} does not fold its output: run it under `with reveal(...)`")


@pytest.mark.parametrize("assignment, name", NOTEBOOKS, ids=map(notebook_id, NOTEBOOKS))
def test_sections_and_questions_are_numbered_in_order(assignment, name):
    """Numbered sections ("## 1. ...") count 1, 2, 3 in order (tasks carry their own markers); when
    a notebook labels its questions Q1, Q2, ..., every question (the markdown before a written
    answer) has its label, in order."""
    cells = _cells(assignment, name)
    markdown = "\n".join(c.source for c in cells if c.cell_type == "markdown" and not _written_answer(c))
    sections = [int(n) for n in re.findall(r"^## (\d+)\. ", markdown, re.MULTILINE)]
    assert sections == list(range(1, len(sections) + 1)), f"{name}: sections numbered {sections}"
    questions = [cells[i - 1] for i, c in enumerate(cells) if i and _written_answer(c)]
    labels = [re.findall(r"\*\*[^*\n]*?\bQ(\d+)\.", c.source) for c in questions]
    if any(labels):
        assert all(len(found) == 1 for found in labels), (
            f"{name}: a question without its Q label (or with two): {[found for found in labels]}")
        assert [int(found[0]) for found in labels] == list(range(1, len(labels) + 1)), (
            f"{name}: questions labelled {[found[0] for found in labels]}")


# Solution lines that visible test messages once spelled out (a message names the mistake, it does
# not hand over the line that fixes it).
SOLUTION_LINES = {
    "04_module_parameters": ["(x - y) * (x - y)"],
    "07_init_variance": ["np.random.uniform(-b, b, size)", "x = relu(x @ W)"],
}


@pytest.mark.parametrize("name, lines", SOLUTION_LINES.items())
def test_visible_messages_do_not_spell_out_solution_lines(name, lines):
    for cell in _cells(LECTURE8, name, released=True):
        if _grade_meta(cell).get("grade") and cell.cell_type == "code":
            for line in lines:
                assert line not in cell.source, f"{name}: a visible test's message spells out {line!r}"


def _checks_namespace(name, replace=None):
    """The names a notebook's quick checks (its YOURS) see: the solution cells of its tasks, some of
    them replaced by a mistake fixture's cells, then the checks cell itself."""
    import needle as ndl
    import numpy as np

    namespace = {"ndl": ndl, "np": np, "ops": ndl.ops}
    cells = _cells(LECTURE8, name)
    for cell in cells:
        gid = _grade_meta(cell).get("grade_id", "")
        if cell.cell_type == "code" and _grade_meta(cell).get("solution"):
            exec((replace or {}).get(gid, cell.source), namespace)
    exec(next(c.source for c in cells if c.cell_type == "code" and "\nYOURS = " in c.source), namespace)
    return namespace


def _fixture_cells(stem):
    from autograder.check.selfcheck import load_mistake

    return load_mistake(LECTURE8.suite_dir / "mistakes" / f"{stem}.py")["CELLS"]


def test_04_quick_check_of_module_catches_a_shared_parameter_listed_twice():
    # 04's shared-Parameter reveal says each is listed once: its quick check must warn when not
    assert _checks_namespace("04_module_parameters")["your_module_is_right"]()
    no_dedup = _checks_namespace("04_module_parameters", _fixture_cells("module_params_no_dedup"))
    assert not no_dedup["your_module_is_right"]()


@pytest.mark.parametrize("stem, check", [("topo_preorder", "your_topo_sort_is_right"),
                                         ("backward_overwrites_adjoints", "your_backward_is_right")])
def test_09_quick_checks_catch_wrong_tasks(stem, check):
    right = _checks_namespace("09_backward")
    assert right["your_topo_sort_is_right"]() and right["your_backward_is_right"]()
    assert not _checks_namespace("09_backward", _fixture_cells(stem))[check]()


# (topo_recursive passes 9.2's visible rungs: their graphs are small; its deep graph is a hidden rung)
@pytest.mark.parametrize("stem", ["topo_preorder", "topo_no_visited_set", "topo_returns_reversed"])
def test_09_task_9_2_visible_test_sends_a_wrong_find_topo_sort_to_task_9_1(stem):
    # only Task 9.1 wrong: Task 9.2's visible test must not blame the (right) compute_gradient_of_variables
    from autograder.check.selfcheck import visible_message

    message = visible_message(LECTURE8, "09_backward", "9.2", _fixture_cells(stem))
    assert "Also failing: Task 9.1, rung" in message and "fix Task 9.1 first" in message, message
