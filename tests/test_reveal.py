"""coursekit.reveal: a reveal's output folded under a summary line; warnings about wrong functions."""
import re
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402

from coursekit import reveal as reveal_module  # noqa: E402
from coursekit.reveal import failing, reveal  # noqa: E402


@pytest.fixture
def shown(monkeypatch):
    """What reveal displays in a notebook (IPython's display replaced by a list)."""
    from IPython import display as ipython_display

    out = []
    monkeypatch.setattr(reveal_module, "_in_ipython", lambda: True)
    monkeypatch.setattr(ipython_display, "display", lambda obj: out.append(obj.data))
    return out


def test_in_a_notebook_the_output_and_figures_are_folded(shown, capsys):
    with reveal("what happens"):
        print("the answer is 42 < 43")
        fig, ax = plt.subplots()
        ax.plot([1, 2])
        ax.set_title("losses < 1")
    assert capsys.readouterr().out == ""  # nothing printed outside the fold
    (page,) = shown
    assert page.startswith("<details><summary><b>what happens</b>") and page.endswith("</details>")
    assert "<pre>the answer is 42 &lt; 43\n</pre>" in page  # escaped
    # its title as alternative text, escaped (nbconvert warned of images without any)
    assert len(re.findall(r'<img src="data:image/png;base64,[A-Za-z0-9+/=]+" alt="losses &lt; 1"/>', page)) == 1
    assert plt.get_fignums() == []  # the figure is closed


def test_figures_open_before_the_block_are_left_alone(shown):
    before = plt.figure()
    with reveal("later"):
        plt.figure()
    assert plt.get_fignums() == [before.number]
    assert shown[0].count("<img") == 1
    plt.close("all")


def test_without_ipython_the_lines_are_printed(capsys, monkeypatch):
    # An earlier test in the same run may have started an IPython shell: this one runs without.
    monkeypatch.delitem(sys.modules, "IPython", raising=False)
    with reveal("what happens"):
        print("plain text")
        plt.figure()
    assert capsys.readouterr().out == "plain text\n"
    assert plt.get_fignums() == []


def test_what_was_printed_is_shown_when_the_block_raises(shown):
    with pytest.raises(ZeroDivisionError):
        with reveal("boom"):
            print("before the error")
            1 / 0
    assert "before the error" in shown[0]


def test_a_failing_check_is_named_above_the_fold(shown, capsys):
    def wrong():
        return False

    def raises():
        raise ValueError("no")

    with reveal("runs", {"your train (Task 5.2)": wrong, "your SGD (Task 5.1)": raises, "your loss": lambda: True}):
        print("inside")
    printed = capsys.readouterr().out
    assert "⚠ your train (Task 5.2) fails a quick check" in printed
    assert "⚠ your SGD (Task 5.1) fails a quick check" in printed
    assert "your loss" not in printed and "inside" not in printed


def test_checks_keep_numpy_global_random_state_and_are_silent(capsys):
    np.random.seed(3)
    expected = np.random.rand()
    np.random.seed(3)

    def draws():
        print("noise")
        np.random.rand(100)
        return np.float32(1) / np.float32(0) > 0  # a warning numpy would print

    assert failing({"draws": draws}) == []
    assert np.random.rand() == expected
    assert capsys.readouterr().out == ""


# --- every notebook folds its reveals and their explanations ----------------------------------
FOLD_OPEN = re.compile(r"\A<details><summary><b>[^<]+</b> \(open after the reveal\)</summary>\n")


def _notebooks_in_git() -> list:
    from conftest import ROOT

    return sorted(ROOT.glob("solutions/**/*.ipynb")) + sorted(ROOT.glob("course/**/*.ipynb"))


def _folds(source: str) -> bool:
    """The markdown cell opens with a fold (nothing of the explanation before its summary), closed."""
    return bool(FOLD_OPEN.match(source)) and "</details>" in source


@pytest.mark.parametrize("path", _notebooks_in_git(), ids=lambda p: f"{p.parent.parent.name}/{p.name}")
def test_every_reveal_and_every_why_is_folded(path):
    """A reveal cell starts collapsed and folds its output (with reveal(...)); the explanation after
    it (its "Why") opens folded under a summary that says to open it after the reveal (a next step
    may follow the fold); no "Why" explanation sits in the open anywhere else."""
    import nbformat

    cells = nbformat.read(path, as_version=4).cells
    reveals = [i for i, c in enumerate(cells) if "reveal" in c.metadata.get("tags", [])]
    for i in reveals:
        cell = cells[i]
        assert cell.cell_type == "code" and cell.metadata.get("jupyter", {}).get("source_hidden") is True, (
            f"{path.name}: reveal cell {i} must be a code cell that starts collapsed (jupyter.source_hidden)")
        assert re.search(r"^with reveal\(", cell.source, re.MULTILINE), (
            f"{path.name}: reveal cell {i} does not fold its output: run it under `with reveal(...)`")
        after = cells[i + 1] if i + 1 < len(cells) else None
        assert after is not None and after.cell_type == "markdown" and _folds(after.source), (
            f"{path.name}: the explanation after reveal cell {i} is not folded: start its cell with "
            "'<details><summary><b>Why</b> (open after the reveal)</summary>' and close the fold with "
            "'</details>' after the explanation")
    for i, cell in enumerate(cells):
        if cell.cell_type != "markdown":
            continue
        unfolded = re.sub(r"<details>.*?</details>", "", cell.source, flags=re.DOTALL)
        # an explanation's label ("**Why**", "<b>Why ...</b>") outside a fold (the lesson's own
        # "Why ..." sentences and "**Why ...?**" questions are not a reveal's answer)
        assert not re.search(r"(\*\*|<b>)Why\b[^*<\n?]*(\*\*|</b>)", unfolded), (
            f"{path.name}: markdown cell {i} has a 'Why' explanation in the open: fold it as the reveals' explanations are")
        assert cell.source.count("<details>") == cell.source.count("</details>"), (
            f"{path.name}: markdown cell {i} opens a <details> it does not close")
