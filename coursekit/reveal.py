"""Reveals that "Run All" does not spoil.

A check-your-understanding question in a course notebook asks for a written prediction; a code
cell after it shows what really happens. ``with reveal("what happens without reset_grad"):``
runs that code, and shows the lines it prints and the figures it makes folded under one summary
line, opened with a click: running every cell of a notebook puts no answer on screen before the
student has written one. (Without IPython, in a script or a test, the lines are printed as
usual and the figures closed.)

A reveal usually runs the student's own functions. ``checks`` names them, each with a quick
check (a callable that returns True when the function is right on a small case); one that
returns False or raises prints, above the fold, that the results come from that function and
may not match the explanation. The checks run with numpy's global random state saved and
restored, so they do not change what the reveal draws.
"""
from __future__ import annotations

import contextlib
import html
import io
import sys
from collections.abc import Callable, Iterator

import numpy as np

from needle.viz import figure_png


@contextlib.contextmanager
def reveal(summary: str, checks: dict[str, Callable[[], bool]] | None = None) -> Iterator[None]:
    """Run the block; show what it prints and the figures it makes folded under ``summary``.

    Draw without ``plt.show()``: every figure the block leaves open is shown in the fold (and
    closed). ``checks`` maps a description of a function the block uses ("your train (Task
    5.2)") to a callable returning True when that function is right."""
    for what in failing(checks or {}):
        print(f"⚠ {what} fails a quick check: the results below come from it and may not match the explanation "
              "(its task's visible tests say what is wrong).")
    plt = _pyplot()
    before = set(plt.get_fignums()) if plt else set()
    text = io.StringIO()
    try:
        with contextlib.redirect_stdout(text):
            yield
    finally:
        plt = _pyplot()  # the block may have imported it
        figures = [plt.figure(n) for n in plt.get_fignums() if n not in before] if plt else []
        _show(summary, text.getvalue(), figures)
        for fig in figures:
            plt.close(fig)


def failing(checks: dict[str, Callable[[], bool]]) -> list[str]:
    """The descriptions whose check returns something false or raises (silently: the check's
    own prints and numpy warnings are dropped; numpy's global random state is restored)."""
    bad = []
    state = np.random.get_state()
    try:
        for what, check in checks.items():
            try:
                with contextlib.redirect_stdout(io.StringIO()), np.errstate(all="ignore"):
                    right = bool(check())
            except Exception:
                right = False
            if not right:
                bad.append(what)
    finally:
        np.random.set_state(state)
    return bad


def _pyplot():
    """matplotlib.pyplot if the notebook already uses it, else None (nothing to collect)."""
    return sys.modules.get("matplotlib.pyplot")


def _in_ipython() -> bool:
    shell = sys.modules.get("IPython")
    return shell is not None and shell.get_ipython() is not None


def _alt(fig) -> str:
    """A figure's text for readers who cannot see it (screen readers, a page whose image failed):
    its title and its axes' titles."""
    titles = [fig._suptitle.get_text()] if getattr(fig, "_suptitle", None) is not None else []
    titles += [ax.get_title() or ax.get_title(loc="left") for ax in fig.axes]
    return "; ".join(t for t in titles if t) or "a figure of this answer"


def _show(summary: str, text: str, figures: list) -> None:
    if not _in_ipython():
        sys.stdout.write(text)
        return
    from IPython.display import HTML, display

    parts = [f"<details><summary><b>{html.escape(summary)}</b> (click to open, once you have written your answer)"
             "</summary>"]
    if text:
        parts.append(f"<pre>{html.escape(text)}</pre>")
    parts += [f'<img src="data:image/png;base64,{figure_png(fig)}" alt="{html.escape(_alt(fig))}"/>' for fig in figures]
    parts.append("</details>")
    display(HTML("\n".join(parts)))
