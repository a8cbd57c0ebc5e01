"""coursekit.hints: one cause, from a fixed vocabulary, and the student's own line; no string made
by student code in a grader's message (autograder.grade.hints.explain)."""
import re

import numpy as np
import pytest

import needle as ndl
from autograder.grade.hints import explain
from coursekit import hints
from conftest import LECTURE8


def raised(source: str, index: int = 0, ns=None) -> BaseException:
    try:
        exec(compile(source, f"<cell {index}>", "exec"), {"ndl": ndl} if ns is None else ns)
    except Exception as exc:  # noqa: BLE001 - the point is to look at it
        return exc
    raise AssertionError("no exception")


@pytest.mark.parametrize("source, cause, shown", [
    ("def f(t):\n    return t.grad.numpy()\nf(ndl.Tensor([1.0]))", "none_attribute", "`.numpy`'s owner is None"),
    ("x = undefined_thing + 1", "name_not_defined", "(`undefined_thing`)"),
    ("ndl.Tensor([1.0, 2.0]) + ndl.Tensor([1.0])", "shape_mismatch", "needle's `add`"),
    ("ndl.Tensor([[1.0, 2.0]]) @ ndl.Tensor([[1.0, 2.0]])", "matmul_shape", "needle's `matmul`"),
    ("import numpy as np\nnp.ones(3) + np.ones(2)", "numpy_shape", "a numpy operation"),
    ("i = 1.5\n[1, 2][i]", "float_index", "a float where an integer is needed"),
    ("def f():\n    pass\nf() + 1", "none_operand", "forgot its return"),
    ("{}[[1]] = 2", "unhashable", "(a list)"),
    ("def g(n):\n    return g(n + 1)\ng(0)", "recursion", "explicit stack"),
    ("raise NotImplementedError()", "not_implemented", "not implemented yet"),
    ("ndl.Tensor([1.0]) + [1.0]", None, ""),
])
def test_each_common_mistake_gets_its_cause_and_the_line(source, cause, shown):
    exc = raised(source, index=1)
    info = hints.classify(exc)
    if cause is not None:
        assert info["cause"] == cause
    cells = ["# setup", source]
    text = explain(type(exc).__name__, info, cells)
    assert shown in text
    assert info["where"][0] == 1 and f"line {info['where'][1]} of your cell" in text


def test_the_line_is_named_with_the_function_that_holds_it():
    exc = raised("import numpy as np\n\nclass SGD:\n    def step(self):\n        for p in self.params:\n            p.grad.data\nSGD.params = [ndl.Tensor([1.0])]\nSGD().step()")
    text = explain("AttributeError", hints.classify(exc), ["import numpy as np\n\nclass SGD:\n    def step(self):\n        for p in self.params:\n            p.grad.data\n"])
    assert "at line 6 of your cell, in `def step(self):`: `p.grad.data`: an attribute of None: `.data`'s owner is None" in text


def test_details_not_in_the_line_are_not_repeated():
    """A detail the student's code chose (an exception message, a class name) is shown only when
    that very name is in the line read from the notebook, or is a known type or op."""
    forged = {"cause": "name_not_defined", "detail": "SECRET_INPUT_IS_42", "where": [0, 1]}
    assert "SECRET" not in explain("NameError", forged, ["x = y + 1"])
    forged = {"cause": "type_mix", "detail": "Leak42,Leak43", "where": [0, 1]}
    assert "Leak" not in explain("TypeError", forged, ["x = a + b"])
    forged = {"cause": "shape_mismatch", "detail": "leak_op", "where": [0, 1]}
    assert "leak" not in explain("ValueError", forged, ["x = a + b"]) and "a needle op" in explain("ValueError", forged, ["x = a + b"])
    forged = {"cause": "not_a_cause", "detail": "x", "where": [7, 99]}
    assert explain("ValueError", forged, ["x = a + b"]) == "your code raised ValueError"


# A notebook's setup cell, on one line (a cell's line numbers below it stay as written).
SETUP = "import needle as ndl; from coursekit import hints; hints.install()"


def test_install_adds_one_hint_line_under_the_traceback(capsys):
    ipapp = pytest.importorskip("IPython.testing.globalipapp")
    shell = ipapp.start_ipython()
    assert hints.install()
    shell.run_cell("import needle as ndl\ndef count_graph_nodes(t):\n    return t.op.inputs\n")
    shell.run_cell("count_graph_nodes(ndl.Tensor([1.0]))")
    out = capsys.readouterr().out
    assert "AttributeError" in out
    assert ("hint: at line 3 of your cell, in `def count_graph_nodes(t):`: `return t.op.inputs`: `.op.inputs`: the "
            "inputs belong to the node, not to its op") in out


def test_a_notebook_shows_the_hint_under_the_traceback_and_still_fails():
    """In a real kernel: the setup cell installs the hints; the cell still counts as an error."""
    import nbclient
    import nbformat
    from kernels import run_notebook

    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell(SETUP + "\ndef f(t):\n    return t.op.inputs"),
                nbformat.v4.new_code_cell("f(ndl.Tensor([1.0]))")]
    run_notebook(nb, allow_errors=True, timeout=120)
    outputs = nb.cells[1].outputs
    assert outputs[0]["output_type"] == "error" and outputs[0]["ename"] == "AttributeError"
    assert any("hint: at line 3 of your cell, in `def f(t):`" in o.get("text", "") for o in outputs)
    with pytest.raises(nbclient.exceptions.CellExecutionError):
        run_notebook(nb, timeout=120)


# --- the audit's raised-error hints: each names the mistake the line shows ----------------------------
def hint_of(source: str, index: int = 1) -> str:
    exc = raised(source, index=index, ns={"ndl": ndl, "np": np})
    return explain(type(exc).__name__, hints.classify(exc), ["# setup", source] if index == 1 else [source])


def test_a_misspelt_numpy_function_is_named_like_a_misspelt_attribute():
    """c03_lse_np_typo: `np.logg(s)` (AttributeError: module 'numpy' has no attribute 'logg')."""
    text = hint_of("s = np.ones(3)\nout = np.logg(s) + 1")
    assert "at line 2 of your cell: `out = np.logg(s) + 1`: an attribute that this module does not have " \
           "(numpy has no attribute `logg`): check its spelling" in text
    text = hint_of("t = ndl.Tensor([1.0])\nt.realise_cached_data()")  # the Tensor case it matches
    assert "an attribute that this object does not have (`.realise_cached_data` of a Tensor)" in text


def test_a_module_attribute_is_named_only_when_the_line_has_it():
    forged = {"cause": "module_attribute", "detail": "numpy:Leak42", "where": [0, 1]}
    assert "Leak42" not in explain("AttributeError", forged, ["x = np.foo(1)"])
    forged = {"cause": "module_attribute", "detail": "secret_mod:foo", "where": [0, 1]}
    text = explain("AttributeError", forged, ["x = sm.foo(1)"])
    assert "secret_mod" not in text and "(it has no attribute `foo`)" in text


def test_a_tensor_used_as_a_condition_says_test_is_none():
    """c05_sgd_grad_truthiness: `if not p.grad:` (needle's TypeError about a truth value)."""
    text = hint_of("class P:\n    grad = ndl.Tensor([1.0, 2.0])\np = P()\nif not p.grad:\n    pass")
    assert "at line 4 of your cell: `if not p.grad:`: a Tensor used as a condition (if, not, and, or, while)" in text
    assert "test `is None`" in text
    assert "`is None`" in hint_of("a = np.ones(3)\nif a:\n    pass") and "an array used as a condition" in hint_of("a = np.ones(3)\nif a:\n    pass")


def test_none_as_an_operand_guesses_a_missing_return_only_when_the_line_calls_something():
    """c09_cg_no_none_check: `adjoint = adjoint + partial` with a None partial adjoint."""
    for source in ("adjoint, partial = None, None\nadjoint = adjoint + partial",
                   "adjoint, partial = ndl.Tensor([1.0]), None\nadjoint = adjoint + partial"):  # needle's ScalarError
        text = hint_of(source)
        assert "at line 2 of your cell: `adjoint = adjoint + partial`: None as an operand of `+`: a value here is None" in text
        assert "gradient() gives for an input with no adjoint" in text and "return statement" not in text
    text = hint_of("def f():\n    pass\nx = f() + 1")
    assert "None as an operand of `+`" in text and "forgot its return statement" in text


def test_looping_over_a_single_tensor_from_gradient_is_named():
    """c09_cg_gradient_not_tuple: zip(node.inputs, node.op.gradient(adjoint, node)) for a one-input op."""
    source = ("class Op:\n    def gradient(self, g, node):\n        return g\nclass Node:\n    op = Op()\n"
              "    inputs = [ndl.Tensor([1.0])]\nnode = Node()\nadjoint = ndl.Tensor([1.0])\n"
              "for x, partial in zip(node.inputs, node.op.gradient(adjoint, node)):\n    pass")
    text = hint_of(source)
    said = ("a single Tensor where a tuple was expected: an op's gradient() gives one Tensor when the op has one input; "
            "gradient_as_tuple always gives a tuple, one adjoint per input")
    assert said in text and "two types that do not go together" not in text
    indexed = hint_of("class Op:\n    def gradient(self, g, node):\n        return g\npartial = Op().gradient(ndl.Tensor([1.0]), None)[0]")
    assert said in indexed  # the same mistake, indexed rather than zipped: the same hint
    assert "iterating over a Tensor (a for loop, zip or unpacking), which cannot be iterated" in hint_of("t = ndl.Tensor([1.0])\nfor x in t:\n    pass")
    assert "indexing a Tensor, which cannot be indexed" in hint_of("t = ndl.Tensor([1.0])\nt[0]")


@pytest.mark.parametrize("axes", ["None", "1"])
def test_looping_over_axes_that_are_none_or_an_int(axes):
    """c03_op_kept_loop_typeerror: `for ax in self.axes:` with axes None or an int."""
    source = (f"class LogSumExp:\n    def __init__(self, axes={axes}):\n        self.axes = axes\n"
              "    def gradient(self):\n        for ax in self.axes:\n            pass\nLogSumExp().gradient()")
    text = hint_of(source)
    assert ("at line 5 of your cell, in `def gradient(self):`: `for ax in self.axes:`: iterating over None or an int "
            "(a for loop, zip or unpacking), which cannot be iterated: axes may be None, an int or a tuple (handle each form)") in text
    assert "forgot its return" not in text and "a int" not in text and "do not go together" not in text


def test_articles_of_types():
    forged = {"cause": "type_mix", "detail": "int,ndarray", "where": [0, 1]}
    assert "(an int and an ndarray)" in explain("TypeError", forged, ["x = a + b"])


@pytest.mark.parametrize("source, cause, shown, not_shown", [
    ("import numpy as np\nx = np.exp(np.ones((2, 3)) - np.ones(2))", "numpy_shape", "a shape mismatch in a numpy operation", "never broadcasts"),
    ("predicted = np.ones(10)\nn = int((predicted == np.ones(32)).sum())", "numpy_shape", "a numpy operation", "never broadcasts"),
    ("x = ndl.Tensor(np.ones((4, 3)))\ny = x @ ndl.Tensor(np.ones((4, 4)))", "matmul_shape",
     "a matrix product of mismatched shapes in needle's `matmul`: the last axis of the left operand must equal the second-to-last", "never broadcasts"),
    ("y = np.ones((4, 3)) @ np.ones((4, 4))", "matmul_shape", "a matrix product of mismatched shapes in a numpy operation", "never broadcasts"),
    ("y = ndl.ops.reshape(ndl.Tensor([1.0, 2.0]), (1, 3))", "reshape_size", "a reshape into a shape with another number of elements in needle's `reshape`", "never broadcasts"),
    ("y = ndl.ops.broadcast_to(ndl.Tensor([1.0, 2.0]), (2, 3))", "broadcast_shape", "a broadcast to a shape this tensor cannot reach", "never broadcasts"),
    ("y = ndl.Tensor([1.0, 2.0]) + ndl.Tensor([1.0])", "shape_mismatch", "(needle never broadcasts implicitly: reshape or broadcast_to first)", "a numpy operation"),
])
def test_the_broadcast_note_only_for_needles_elementwise_ops(source, cause, shown, not_shown):
    """c03_soft_newaxis_shape, c08_acc_axis0 (numpy broadcasts), c07_as_transposed_input (matmul)."""
    exc = raised(source, index=1, ns={"ndl": ndl, "np": np})
    info = hints.classify(exc)
    assert info["cause"] == cause
    text = explain(type(exc).__name__, info, ["# setup", source])
    assert shown in text and not_shown not in text and f"at line {info['where'][1]} of your cell" in text


def test_an_error_raised_after_the_students_code_returned_says_so():
    """c03_lse_keepdims_reversed: needle's backward refuses the shape the student's forward gave;
    no frame of a cell is on the stack, so there is no line of theirs to show."""
    def grader_side():
        exec(compile("def forward(x):\n    return ndl.Tensor(np.ones((2, 1)))", "<cell 0>", "exec"), ns)
        ns["forward"](None).backward(ndl.Tensor(np.ones(2)))
    ns = {"ndl": ndl, "np": np}
    try:
        grader_side()
    except ValueError as exc:
        info = hints.classify(exc)
    assert info["where"] is None
    text = explain("ValueError", info, ["def forward(x):\n    return ndl.Tensor(np.ones((2, 1)))"])
    assert text.startswith("your code raised ValueError (while no line of yours was running: on something your code returned")


@pytest.mark.parametrize("source, cause, shown", [
    ("x = None\ny = x < 3", "none_operand", "None as an operand of `<`"),
    ("t = ndl.Tensor([1.0])\ny = t * np.ones(2)", "type_mix", "(a Tensor and an ndarray)"),  # needle's ScalarError
    ("t = ndl.Tensor([1.0])\ny = ndl.ops.add_scalar(t, t)", "other", ""),  # not a mix of two types
    ("a, b = None", "not_iterable", "iterating over None (a for loop, zip or unpacking), which cannot be iterated: a value here is None"),
    ("n = 3\nfor i in n:\n    pass", "not_iterable", "iterating over an int (a for loop, zip or unpacking)"),
    ("f = None\nf()", "not_callable", "calling something that is not a function (None)"),
    # Task 4.1's slip (lessons audit): a dict iterated for pairs gives its keys alone
    ("d = {'weight': 1}\nfor name, value in d:\n    pass", "unpack", "looping over a dict gives its keys alone; .items()"),
    ("a, b = (1, 2, 3)", "unpack", "unpacking into more or fewer names than the value holds"),
    ("n = 0\nmean = 3 / n", "zero_division", "a division by zero"),
    # student audit, round 3: causes that needle's own text carried and the grader dropped
    ("t = ndl.Tensor(np.ones((2, 3)))\ny = ndl.ops.transpose(t, (1, 0))\ny = ndl.ops.transpose(t, (2, 0, 1))",
     "transpose_pair", "it swaps two axes, given as a pair (i, j)"),
    ("W = ndl.Tensor(np.ones((3, 2)))\nx = np.ones((4, 3)) @ W", "array_with_tensor",
     "an operation between a numpy array and a needle Tensor"),
    ("p = ndl.Tensor([1.0])\np.grad = ndl.Tensor([1.0])\np.grad.data = None", "data_not_array",
     "to clear a gradient, set p.grad itself to None"),
    ("loss = ndl.Tensor(np.ones(3)).sum()\ntotal = float(loss.numpy()[0])", "index_0d",
     "it has no axis to index; take its number with .item()"),
    ("p = ndl.Tensor([1.0])\np.momentum_buffer = p", "missing_attribute",
     "a new attribute (`.momentum_buffer`) set on a needle Tensor, which takes none"),
    ("class Op:\n    def __init__(self, c0, c1):\n        self.c0 = c0\n\n    def compute(self, a):\n        return a + c0\n"
     "Op(1.0, 2.0).compute(3.0)", "name_not_defined",
     "`c0` is an argument of another method of this class (`def __init__(self, c0, c1):`), a local name"),
])
def test_more_causes_are_named_accurately(source, cause, shown):
    exc = raised(source, index=1, ns={"ndl": ndl, "np": np})
    info = hints.classify(exc)
    assert info["cause"] == cause
    assert shown in explain(type(exc).__name__, info, ["# setup", source])


def test_a_name_set_by_a_line_of_an_added_cell_that_is_not_run_is_explained():
    """An added cell's `RELU_GAIN = math.sqrt(2)` calls something, so the grader does not run it:
    the NameError's hint says that, not "run the cell that defines it"."""
    from autograder.notebook import definitions_only

    added = definitions_only("import math\nRELU_GAIN = math.sqrt(2)\nRELU: float = math.sqrt(2)\n")
    task = "def kaiming_normal(fan_in, fan_out):\n    std = RELU_GAIN / math.sqrt(fan_in)\n    return std\n"
    info = {"cause": "name_not_defined", "detail": "RELU_GAIN", "where": [1, 2]}
    text = explain("NameError", info, [added, task])
    assert "`RELU_GAIN` is set in a cell you added, by a line that calls something" in text
    assert "run the cell that defines it" not in text
    assert "at line 2 of your cell" in text
    # a name no line of an added cell sets: the usual hint
    other = explain("NameError", dict(info, detail="std"), [added, task.replace("RELU_GAIN", "std")])
    assert "run the cell that defines it" in other


def test_a_shape_tuple_given_to_randn_is_named():
    """w07_normal_randn_tuple: `np.random.randn((n, m))` (TypeError: 'tuple' object cannot be interpreted as an integer)."""
    text = hint_of("n, m = 2, 3\nw = np.random.randn((n, m))")
    assert "at line 2 of your cell: `w = np.random.randn((n, m))`: a tuple where separate integers are needed" in text
    assert "randn(rows, cols)" in text


def test_a_comparison_with_a_tensor_names_numpy_functions_on_tensors():
    """w07_stds_relu_numpy_on_tensor: `np.maximum(x @ W, 0)` on needle Tensors ('>=' not supported between a Tensor
    and an int); the same cause for a comparison the student writes, and not for other types."""
    text = hint_of("x = ndl.Tensor(np.ones((2, 2)))\nx = np.maximum(x @ x, 0)")
    assert "at line 2 of your cell: `x = np.maximum(x @ x, 0)`: a comparison (<, >, <=, >=) with a needle Tensor" in text
    assert "numpy's functions do not work on needle Tensors" in text
    assert "a comparison (<, >, <=, >=) with a needle Tensor" in hint_of("t = ndl.Tensor([1.0])\nok = t > 0")
    assert "two types that do not go together (a str and an int)" in hint_of("a = 'x' < 1")


def test_a_quoted_line_keeps_code_and_drops_the_students_words():
    """Reports quote a student's code, not their notes to the reader: a comment goes, and so does
    a string literal's text (red team, round 4: raise ValueError("NOTE FROM COURSE STAFF: ...")
    was quoted whole), as the tokenizer reads the line (a # inside a string is no comment); a
    line with an open bracket still loses its comment, and a string left open all of its text."""
    from coursekit.hints import printable_line

    assert printable_line('    raise ValueError  # NOTE FROM COURSE STAFF: full marks') == "raise ValueError"
    assert printable_line('raise ValueError("NOTE FROM COURSE STAFF: 153/153")') == 'raise ValueError("...")'
    assert printable_line('x = "a # b"  # note') == 'x = "..."'
    assert printable_line("""y = f'{a} staff' + rb"x" """) == """y = f'...' + rb"..." """.strip()
    assert printable_line('x = """NOTE FROM COURSE STAFF') == "x = ..."
    assert printable_line('x = "NOTE FROM COURSE STAFF') == "x = ..."
    assert printable_line("y = f(1,  # note") == "y = f(1,"
    assert printable_line("plain = 1") == "plain = 1"


def test_a_module_that_cannot_be_imported_is_named_from_the_students_line():
    """The hint names the module the line imports, even when the one missing is a dependency of it
    (scipy needs modules the grader's worker cannot load), and no other name."""
    from coursekit.hints import message

    info = {"cause": "module_unavailable", "detail": "fileinput"}
    text = message("ModuleNotFoundError", info, ["    from scipy.special import logsumexp"], 1)
    assert "cannot be imported where your code runs (`scipy`)" in text
    text = message("ModuleNotFoundError", {"cause": "module_unavailable", "detail": "evil words"}, ["x = f()"], 1)
    assert "cannot be imported where your code runs:" in text and "evil" not in text


def test_an_op_called_on_a_numpy_array_says_so():
    """An op applied to an array (Op(...)(a.numpy())) raised needle's own AttributeError from
    inside make_from_op; it is a TypeError naming the op and the type, and its hint says what an
    op takes, at the student's line."""
    import needle as ndl
    from coursekit.hints import classify, message

    with pytest.raises(TypeError, match=r"EWiseAdd: its inputs must be needle Tensors, got ndarray of shape \(1,\)") as info:
        ndl.ops.EWiseAdd()(ndl.Tensor([1.0]), np.ones(1))
    text = message("TypeError", classify(info.value), ["    return FusedAddScalars(c0, c1)(a.numpy())"], 1)
    assert "an op called on an ndarray: an op's inputs are needle Tensors" in text
    with pytest.raises(TypeError, match="got list"):
        ndl.ops.Negate()([1.0])
    with ndl.autograd.lazy_mode(), pytest.raises(TypeError, match="got float"):
        ndl.ops.EWiseMul()(ndl.Tensor([1.0]), 2.0)


@pytest.mark.parametrize("run, line, cause, words", [
    (lambda ndl: float(ndl.Tensor([1.0])), "losses.append(float(loss))", "number_of_tensor", "float() or int() of a needle Tensor"),
    (lambda ndl: max([]), "depth = 1 + max(d[id(x)] for x in node.inputs)", "empty_max", "a leaf has no inputs to take it over"),
    (lambda ndl: (np.array([1, 2]) == ndl.Tensor([1.0, 2.0])).sum(), "correct += (predicted == y).sum()",
     "missing_attribute", "a comparison with a needle Tensor gives one bool"),
])
def test_audit_errors_get_a_cause(run, line, cause, words):
    """Three errors a student audit met with no cause: float() of a loss Tensor, max() over a
    leaf's empty inputs, == between an array and a Tensor (one bool)."""
    import needle as ndl
    from coursekit.hints import classify, message

    with pytest.raises(Exception) as info:
        run(ndl)
    got = classify(info.value)
    assert got["cause"] == cause
    assert words in message(type(info.value).__name__, got, [line], 1)


def test_op_inputs_reads_the_same_on_a_leaf_and_on_an_op_node():
    """`node.op.inputs` raises on a leaf (op None) and on any other node (an op has no .inputs):
    one hint for both."""
    import needle as ndl
    from coursekit.hints import classify, message

    line = "    stack.extend(node.op.inputs)"
    texts = []
    for node in (ndl.Tensor([1.0]), ndl.Tensor([1.0]) * 2):
        with pytest.raises(AttributeError) as info:
            node.op.inputs
        texts.append(message("AttributeError", classify(info.value), [line], 1))
    assert texts[0] == texts[1] and "the inputs belong to the node, not to its op" in texts[0]


# --- the kernel's hint: the course's own cells are not "your cell"; lines numbered as the editor does ------
def test_the_course_cells_are_told_from_the_students_by_their_source():
    """A kernel sees no cell metadata: in every released notebook, each visible-test cell (nbgrader
    grade: true), setup cell and reveal cell is named by its source, and no other cell is."""
    import json
    from pathlib import Path

    from coursekit.hints import course_cell

    notebooks = sorted((Path(__file__).resolve().parents[1] / "course").glob("*/*.ipynb"))
    assert notebooks
    named = set()
    for path in notebooks:
        for cell in json.loads(path.read_text())["cells"]:
            if cell["cell_type"] != "code":
                continue
            lines = "".join(cell["source"]).splitlines()
            meta, tags = cell["metadata"].get("nbgrader", {}), cell["metadata"].get("tags", [])
            task = re.match(r"task(\d+)_(\d+)_tests\Z", meta.get("grade_id", ""))
            expected = (f"the Task {task.group(1)}.{task.group(2)} test cell" if meta.get("grade") and task else
                        "a setup cell" if "setup" in tags else "a reveal cell" if "reveal" in tags else "")
            assert course_cell(lines) == expected, f"{path.name}: {lines[:1]}"
            named.add(expected.split()[1] if expected else "")
    assert named == {"Task", "setup", "reveal", ""}


def _hints(cell) -> list[str]:
    return [line for o in cell.outputs for line in o.get("text", "").splitlines() if line.startswith("hint: ")]


def test_a_hint_never_calls_a_course_cell_yours():
    """In a real kernel. (a) The student's `train` cell does not compile, so the Task 5.2 test cell
    meets an undefined `train`: the hint says that cell has not run, not "check its spelling" at
    "line 3 of your cell". (b) A test cell raises on what the student's function returned: the
    hint says where, not "your cell", and quotes none of the test's code. A student line under a
    test's, and a reveal cell's own line, likewise."""
    import nbformat
    from kernels import run_notebook

    cells = [SETUP + "\nimport numpy as np",
             "def train(model, epochs)\n    return []",  # (a) a SyntaxError: `train` is never defined
             "# Task 5.2 - visible tests (the hidden ones ...)\ndef run_train(epochs=3):\n"
             "    return None, train(None, epochs)\n\nmodel, losses = run_train()",
             "def fused(a):\n    return 1",
             "# Task 6.2 - visible tests (the hidden ones ...)\nout = fused(np.ones(2))\nassert out.shape == (2,)",  # (b)
             "def count(t):\n    return t.op.inputs",
             "# Task 1.1 - visible tests\nassert count(ndl.Tensor([1.0])) == 0",
             "from coursekit.reveal import reveal\n\nwith reveal('Reveal: x'):\n    first = fused(np.ones(2))[0]"]
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell(source) for source in cells]
    run_notebook(nb, allow_errors=True, timeout=120)
    assert _hints(nb.cells[2]) == [
        "hint: the Task 5.2 test cell raised NameError at its line 3: `train` is not defined: the cell that defines it "
        "has not run successfully (run it and fix its error first)"]
    assert _hints(nb.cells[4]) == [
        "hint: the Task 6.2 test cell raised AttributeError at its line 3, on what your code gave it: an attribute that "
        "this object does not have (`.shape` of an int)"]
    assert _hints(nb.cells[6]) == [
        "hint: at line 2 of your cell, in `def count(t):`: `return t.op.inputs`: `.op.inputs`: the inputs belong to "
        "the node, not to its op (a leaf's op is None; an op holds no inputs)"]
    assert _hints(nb.cells[7]) == [
        "hint: a reveal cell raised TypeError at its line 4, on what your code gave it: indexing an int, which cannot "
        "be indexed"]


def test_a_cells_line_is_numbered_as_the_editor_numbers_it():
    """IPython runs a cell from its first line of code, so its own numbers (and linecache's) miss
    the blank lines above: the hint counts them back, for the cell that raised and for a cell
    whose function a later cell called (the one the editor shows as line 5 is line 5)."""
    import nbformat
    from kernels import run_notebook

    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell(SETUP),
                nbformat.v4.new_code_cell("\n\n \ndef f(t):\n    return t.op.inputs"),
                nbformat.v4.new_code_cell("f(ndl.Tensor([1.0]))"),
                nbformat.v4.new_code_cell("\n\nx = None\ny = x + 1")]
    run_notebook(nb, allow_errors=True, timeout=120)
    assert _hints(nb.cells[2])[0].startswith("hint: at line 5 of your cell, in `def f(t):`: `return t.op.inputs`")
    assert _hints(nb.cells[3])[0].startswith("hint: at line 4 of your cell: `y = x + 1`: None as an operand of `+`")


def test_abs_of_a_tensor_is_named():
    """A squared error written with abs() (the audit's L2Loss): Python's "bad operand type for
    abs()" named as needle's missing absolute value, with the student's line."""
    hint = hint_of("loss = abs(ndl.Tensor([1.0]) - ndl.Tensor([3.0])) ** 2")
    assert "abs() of a needle Tensor, which has no absolute value" in hint and "`loss = abs(" in hint


def test_numpy_of_a_tensortuple_says_what_a_tensortuple_is():
    """The audit's 9.2 backward that took .numpy() of a tuple op's adjoint: the hint named only the
    symptom; it now says a TensorTuple holds several Tensors, to be indexed."""
    hint = hint_of("ndl.ops.make_tuple(ndl.Tensor([1.0]), ndl.Tensor([2.0])).numpy()")
    assert "`.numpy` of a TensorTuple" in hint and "a TensorTuple holds several Tensors" in hint


# --- needle's answers stay out of the notebook's tracebacks ---------------------------------------------
def test_the_answers_left_out_of_tracebacks_are_the_tasks_declared_own_work(monkeypatch):
    """What tracebacks leave out is read from the tasks' declarations (tasks.json beside the
    notebooks): needle's answers (the backward, Module, the optimizers, ...), not the tools that
    walk graphs (viz, gradcheck), nothing of numpy's, and nothing where no tasks.json is."""
    from autograder.check import manifest



    declared = {n for t in manifest.declared(LECTURE8).values() for n in t["own_work"] if n.startswith("needle.")}
    answers = set(hints.task_answers(LECTURE8.source_dir))
    assert answers == declared - {n for n in declared if n.startswith(("needle.viz", "needle.gradcheck"))}
    assert "needle.nn.Module" in answers and not any(n.startswith("numpy") for n in answers)
    monkeypatch.chdir(LECTURE8.source_dir)
    assert hints.task_answers() == tuple(sorted(answers))
    monkeypatch.chdir(LECTURE8.source_dir.parent)
    assert hints.task_answers() == ()


def test_frames_of_needles_answers_are_left_out_and_the_students_kept(monkeypatch):


    monkeypatch.chdir(LECTURE8.source_dir)  # where the notebook runs: its tasks.json names the answers
    class Mine(ndl.nn.Module):
        def forward(self, x):
            return x.op.inputs  # raises: a leaf's op is None

    try:
        Mine()(ndl.Tensor([1.0]))
    except AttributeError as exc:
        tb = exc.__traceback__
    names = []
    shown = hints.without_answer_frames(tb)
    while shown is not None:
        names.append(shown.tb_frame.f_code.co_name)
        shown = shown.tb_next
    assert names == ["test_frames_of_needles_answers_are_left_out_and_the_students_kept", "forward"]  # not __call__
    assert hints.without_answer_frames(tb.tb_next.tb_next) is tb.tb_next.tb_next  # nothing to leave out: as it was


def test_a_notebooks_traceback_prints_no_line_of_needles_answers():
    """In a real kernel: an error on its way through Module.__call__ (Task 4.1), the backward's engine
    (Task 9.2) or raised inside needle's FusedAddScalars.gradient (Task 6.2) shows the student's lines
    and the exception, and none of those answers' lines."""
    import nbformat
    from kernels import run_notebook

    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell(source) for source in (
        SETUP + "\nclass M(ndl.nn.Module):\n    def forward(self, x):\n        return x.op.inputs\nM()(ndl.Tensor([1.0]))",
        "t = ndl.ops.fused_add_scalars(ndl.Tensor([1.0]), 1.0, 2.0)\nt.op.gradient(ndl.Tensor([1.0]), t)",
        "class Bad(ndl.TensorOp):\n    def compute(self, a):\n        return a\n    def gradient(self, g, node):\n"
        "        return g.oops\nBad()(ndl.Tensor([1.0])).sum().backward()")]
    run_notebook(nb, LECTURE8.release_dir, allow_errors=True, timeout=120)  # where tasks.json names the answers
    shown = ["\n".join(re.sub(r"\x1b\[[0-9;]*m", "", line) for line in cell.outputs[0]["traceback"]) for cell in nb.cells]
    assert all("needle/" not in text for text in shown), shown
    for answer_line in ("self.forward(*args, **kwargs)", "out_grad[0] + out_grad[1]", "node.op.gradient(grad, node)"):
        assert not any(answer_line in text for text in shown), answer_line
    assert "----> 4         return x.op.inputs" in shown[0] and "----> 5         return g.oops" in shown[2]
    assert "TypeError: 'Tensor' object is not subscriptable" in shown[1]
    assert all(any("hint:" in o.get("text", "") for o in cell.outputs) for cell in nb.cells)
