"""What a student does in JupyterLab, for the browser tests: open menus, type into a cell, wait
for the kernel, take screenshots (Playwright's sync API on JupyterLab 4's DOM)."""
from __future__ import annotations

import json
import re
from pathlib import Path

from playwright.sync_api import Locator, Page, expect

ROOT = Path(__file__).resolve().parents[2]
SOLUTIONS = ROOT / "solutions" / "lecture8"
# Generous for a loaded 2-core machine; every wait is on a condition, these only bound it.
UI_TIMEOUT = 60_000  # ms: JupyterLab loading, a kernel starting, menus
RUN_TIMEOUT = 180_000  # ms: a Run All of the notebook (the memory plot times 8,000 updates)
ERROR_OUTPUT = ".jp-OutputArea-output[data-mime-type='application/vnd.jupyter.stderr']"


def solution_source(grade_id: str, notebook_name: str = "01_graph_accumulation") -> str:
    """The instructor's solution cell, as a student would write it (no nbgrader markers)."""
    notebook = json.loads((SOLUTIONS / f"{notebook_name}.ipynb").read_text())
    for cell in notebook["cells"]:
        if cell["metadata"].get("nbgrader", {}).get("grade_id") == grade_id:
            source = "".join(cell["source"])
            lines = [line for line in source.splitlines() if line.strip() not in ("### BEGIN SOLUTION", "### END SOLUTION")]
            assert len(lines) < len(source.splitlines()), f"{grade_id}: no BEGIN/END SOLUTION markers found"
            return "\n".join(lines)
    raise AssertionError(f"no cell {grade_id} in solutions/lecture8/{notebook_name}.ipynb")


# --- what a student does -------------------------------------------------------------------------
def code_cell(page: Page, text: str) -> Locator:
    """The one code cell whose source contains ``text``."""
    cell = page.locator(".jp-Notebook .jp-CodeCell").filter(has=page.locator(".jp-InputArea", has_text=text))
    expect(cell).to_have_count(1, timeout=UI_TIMEOUT)
    return cell


def outputs(cell: Locator) -> Locator:
    return cell.locator(".jp-OutputArea-output")


def wait_idle(page: Page) -> None:
    """The notebook's kernel has started and runs nothing."""
    indicator = page.locator(".jp-NotebookPanel:not(.lm-mod-hidden) .jp-Notebook-ExecutionIndicator")
    expect(indicator).to_have_attribute("data-status", "idle", timeout=RUN_TIMEOUT)


def menu(page: Page, top: str, item: str) -> None:
    """Click ``top`` in JupyterLab's menu bar, then ``item`` in the menu it opens."""
    page.locator(".lm-MenuBar").get_by_role("menuitem", name=top, exact=True).click(timeout=UI_TIMEOUT)
    # By the label: an item's accessible name also holds its shortcut ("Save NotebookCtrl+S").
    label = page.locator(".lm-Menu-itemLabel", has_text=re.compile(f"^{re.escape(item)}$"))
    page.locator(".lm-Menu .lm-Menu-item").filter(has=label).click(timeout=UI_TIMEOUT)


def type_into(page: Page, cell: Locator, source: str) -> None:
    """Replace the cell's source as a student would: click in its editor, select all, type.

    ``insert_text`` enters the text as one input, like a paste, so CodeMirror neither
    auto-indents the lines nor closes brackets.
    """
    editor = cell.locator(".cm-content")
    editor.click()
    expect(cell).to_have_class(re.compile(r"\bjp-mod-active\b"))
    page.keyboard.press("ControlOrMeta+a")
    page.keyboard.insert_text(source)
    page.keyboard.press("Escape")  # back to command mode, as after editing


def shot(page: Page, path: Path, target: Locator | None = None) -> None:
    """Screenshot with ``target`` in view. Cells off screen are not painted (JupyterLab's
    content-visibility windowing) until scrolled to, so scroll, then wait for two frames."""
    if target is not None:
        target.scroll_into_view_if_needed()
        expect(target).to_be_in_viewport()
    page.evaluate("() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")
    page.screenshot(path=str(path))


def console_problems(page: Page) -> list[str]:
    """Collects console errors and warnings, uncaught exceptions and failed requests of ``page``."""
    problems: list[str] = []
    page.on("console", lambda m: problems.append(f"console {m.type}: {m.text}") if m.type in ("error", "warning") else None)
    page.on("pageerror", lambda e: problems.append(f"page error: {e}"))
    page.on("requestfailed", lambda r: problems.append(f"request failed: {r.url} {r.failure}"))
    return problems
