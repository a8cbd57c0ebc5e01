"""The JupyterLite site (make lite: lite/site/) in Chromium, with no network but 127.0.0.1.

A server this test starts serves lite/site/ on 127.0.0.1; every request of the browser (the
page, the kernel's web worker, JupyterLite's service worker) passes a route handler that lets
127.0.0.1 through and aborts and records anything else. A reader with a fresh browser:

1. opens notebook 01 from the site; the Pyodide kernel starts by itself (the notebook names the
   course's local kernel), and the first code cell, ``import needle`` with numpy, runs: the time
   from opening the page to that cell's end is the "time to first cell" docs/self-study.md states;
2. types Task 1.1's solution into its stub and runs all cells: "Task 1.1: the 8 visible rungs pass",
   and the run stops at Task 1.2's stub;
3. types Task 1.2's solution, runs all: both visible tests pass, the three plots render;
4. saves, opens the site anew and downloads the notebook (the file browser's Download): the
   download, read from the browser's storage, holds what was typed.

Then: no request left 127.0.0.1, and the recorder is shown to see the kernel's requests and to
catch one deliberate request to another host. Timings and sizes go to test-artifacts/lite/.
Two more tests check the build's own checks (a package file unlike the official lock, an import
Pyodide lacks) without a browser.

Not part of `make test` or `make test-browser`: `make test-lite` builds the site and runs this
(pytest -m "e2e or lite" tests/e2e/test_lite.py).
"""
from __future__ import annotations

import hashlib
import json
import re
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
import zipfile
from pathlib import Path

import pytest

try:
    from playwright.sync_api import Page, expect

    from .jupyterlab import code_cell, menu, outputs, shot, solution_source, type_into
except ImportError:  # the e2e extra is missing: conftest skips (or deselects) these tests
    pass

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.skipif("'lite' not in (config.getoption('markexpr') or '')",
                       reason="the JupyterLite site in a browser: run with make test-lite"),
]

ROOT = Path(__file__).resolve().parents[2]
SITE = ROOT / "lite" / "site"
ARTIFACTS = ROOT / "test-artifacts" / "lite"
NOTEBOOK = "lecture8/01_graph_accumulation.ipynb"
# Pyodide in the browser on a loaded 2-core machine: every wait is on a condition, these only bound it.
KERNEL_TIMEOUT = 900_000  # ms: the page, Pyodide, the kernel's packages, numpy, matplotlib, needle
RUN_TIMEOUT = 900_000  # ms: a Run All of notebook 01 in WebAssembly
VISIBLE_PASS = lambda task: re.compile(rf"Task {re.escape(task)}: the \d+ visible rungs pass")  # noqa: E731 (check()'s line)
UI_TIMEOUT = 60_000
PROBE = "http://example.org/lite-test-probe.txt"  # a host the page must not reach
FONT_CACHE = "Matplotlib is building the font cache; this may take a moment."


@pytest.fixture
def site(tmp_path: Path):
    """lite/site/ served on 127.0.0.1 (a free port) by Python's http.server; stopped at teardown."""
    if not (SITE / "index.html").is_file():
        pytest.fail("lite/site/ is not built: make lite builds it (make test-lite does so first)")
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    url = f"http://127.0.0.1:{port}"
    with open(ARTIFACTS / "server.log", "wb") as log:
        server = subprocess.Popen([sys.executable, "-m", "http.server", "--bind", "127.0.0.1", "--directory", str(SITE),
                                   str(port)], stdout=log, stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                urllib.request.urlopen(f"{url}/jupyter-lite.json", timeout=5).close()
                break
            except (OSError, urllib.error.URLError):
                if server.poll() is not None or time.monotonic() > deadline:
                    pytest.fail(f"the site's server did not answer on {url}: {(ARTIFACTS / 'server.log').read_text()[-2000:]}")
                time.sleep(0.2)
        yield url
    finally:
        server.terminate()
        try:
            server.wait(timeout=10)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()


def site_bytes(urls: list[str]) -> int:
    """Bytes of the site's files behind ``urls`` (each file once)."""
    files = {SITE / urllib.parse.unquote(urllib.parse.urlsplit(u).path).lstrip("/") for u in urls}
    return sum(f.stat().st_size for f in files if f.is_file())


def test_notebook_01_in_the_browser_offline(page: Page, site: str) -> None:
    page.set_default_timeout(UI_TIMEOUT)
    requested, blocked = [], []

    def only_this_host(route) -> None:
        url = route.request.url
        if url.startswith(f"{site}/") or url.startswith(("data:", "blob:")):
            requested.append(url)
            route.continue_()
        else:
            blocked.append(url)
            route.abort()

    page.context.route("**/*", only_this_host)  # the context's: the workers' requests pass it too

    # 1. Open the notebook; the kernel starts; the first code cell runs.
    start = time.monotonic()
    page.goto(f"{site}/lab/index.html?path={NOTEBOOK}")
    expect(page.locator(".jp-NotebookPanel .jp-Notebook")).to_be_visible(timeout=KERNEL_TIMEOUT)
    shown = time.monotonic() - start
    first = page.locator(".jp-Notebook .jp-CodeCell").first
    expect(first.locator(".jp-InputArea")).to_contain_text("import needle as ndl", timeout=KERNEL_TIMEOUT)
    expect(page.locator(".jp-Notebook .jp-OutputArea-output")).to_have_count(0)  # the release has no outputs
    expect(page.locator("#jp-main-statusbar")).to_contain_text("Python (Pyodide) | Idle", timeout=KERNEL_TIMEOUT)
    kernel_ready = time.monotonic() - start
    first.locator(".cm-content").click()
    page.keyboard.press("Shift+Enter")
    expect(first.locator(".jp-InputPrompt")).to_have_text("[1]:", timeout=KERNEL_TIMEOUT)
    first_cell = time.monotonic() - start
    expect(outputs(first)).to_have_count(0)  # needle and numpy imported: no ImportError
    first_cell_bytes = site_bytes(requested)
    shot(page, ARTIFACTS / "01-first-cell-ran.png")

    stub_1 = code_cell(page, "def count_graph_nodes(t) -> int:")
    tests_1 = code_cell(page, "# Task 1.1 - visible tests")
    stub_2 = code_cell(page, "def graph_depth(t) -> int:")
    tests_2 = code_cell(page, "# Task 1.2 - visible tests")

    # 2. Task 1.1 typed in, Run All: its visible tests pass; Task 1.2's stub stops the run.
    typed_1 = solution_source("task1_1_count_graph_nodes")
    type_into(page, stub_1, typed_1)
    menu(page, "Run", "Run All Cells")
    expect(outputs(tests_1)).to_contain_text(VISIBLE_PASS("1.1"), timeout=RUN_TIMEOUT)
    expect(outputs(tests_2)).to_contain_text("NotImplementedError", timeout=RUN_TIMEOUT)
    shot(page, ARTIFACTS / "02-task-1-1-passed.png", outputs(tests_1))

    # 3. Task 1.2 too, Run All: every cell runs, the plots render as PNG images.
    type_into(page, stub_2, solution_source("task1_2_graph_depth"))
    menu(page, "Run", "Run All Cells")
    expect(outputs(tests_2)).to_contain_text(VISIBLE_PASS("1.2"), timeout=RUN_TIMEOUT)
    last = page.locator(".jp-Notebook .jp-CodeCell").last
    expect(outputs(last)).to_contain_text("after 1,000,000 steps: 4,000,002 nodes", timeout=RUN_TIMEOUT)
    expect(outputs(tests_1)).to_contain_text(VISIBLE_PASS("1.1"))
    # matplotlib says so on stderr at its first import in every new kernel (Pyodide's files start empty).
    stderr = page.locator(".jp-Notebook .jp-OutputArea-output[data-mime-type='application/vnd.jupyter.stderr']")
    written = [text.strip() for text in stderr.all_inner_texts()]
    assert written in ([], [FONT_CACHE]), f"cells wrote to stderr: {written}"
    plots = page.locator(".jp-Notebook .jp-OutputArea-output img[src^='data:image/png;base64,']")
    expect(plots).to_have_count(3)  # the graph after 3 steps, after 10,000, and size and memory against steps
    for i in range(3):
        plots.nth(i).scroll_into_view_if_needed()
        size = plots.nth(i).evaluate("img => img.decode().then(() => [img.naturalWidth, img.naturalHeight])")
        assert size[0] > 300 and size[1] > 100, f"plot {i} did not render as an image: natural size {size}"
    shot(page, ARTIFACTS / "03-all-passed-plots.png", plots.nth(2))

    # 4. Save, open the site anew (no notebook open, so no kernel) and download the notebook from the
    # file browser, as docs/self-study.md says: the download, read from the browser's storage, holds the work.
    menu(page, "File", "Save Notebook")
    expect(page.locator(".lm-TabBar-tab.jp-mod-dirty")).to_have_count(0)
    page.goto(f"{site}/lab/index.html")
    page.locator(".jp-DirListing-item", has_text="lecture8").dblclick(timeout=KERNEL_TIMEOUT)
    with page.expect_download(timeout=UI_TIMEOUT) as download:
        page.locator(".jp-DirListing-item", has_text="01_graph_accumulation.ipynb").click(button="right")
        label = page.locator(".lm-Menu-itemLabel", has_text=re.compile("^Download$"))
        page.locator(".lm-Menu .lm-Menu-item").filter(has=label).click()
    saved = ARTIFACTS / "downloaded-01_graph_accumulation.ipynb"
    download.value.save_as(saved)
    cells = {c["metadata"].get("nbgrader", {}).get("grade_id"): "".join(c["source"])
             for c in json.loads(saved.read_text())["cells"]}
    assert cells["task1_1_count_graph_nodes"] == typed_1, "the downloaded notebook lost Task 1.1's typed solution"
    assert cells["task1_2_graph_depth"] == solution_source("task1_2_graph_depth")

    # Nothing left 127.0.0.1; the recorder saw the kernel worker's files and catches a request elsewhere.
    assert blocked == [], f"the site asked hosts other than 127.0.0.1 for: {blocked}"
    for needed in ("/static/pyodide/pyodide.asm.wasm", "/static/pyodide/numpy-", "/static/pyodide/needle-"):
        assert any(needed in u for u in requested), f"no request for {needed}: the route did not see the kernel's requests"
    result = page.evaluate("url => fetch(url).then(() => 'reached', () => 'failed')", PROBE)
    assert result == "failed" and blocked == [PROBE], f"the blocker missed a request to another host: {result}, {blocked}"

    site_size = sum(f.stat().st_size for f in SITE.rglob("*") if f.is_file())
    report = (f"lite site: {site_size / 2**20:.0f} MiB on disk; notebook 01 shown after {shown:.0f} s, kernel idle after "
              f"{kernel_ready:.0f} s, first cell done after {first_cell:.0f} s "
              f"({first_cell_bytes / 2**20:.0f} MiB of the site fetched by then); load average {_load()}")
    (ARTIFACTS / "timings.txt").write_text(report + "\n")
    print(report)


def _load() -> str:
    try:
        return " ".join(Path("/proc/loadavg").read_text().split()[:3])
    except OSError:
        return "unknown"


# --- the build's checks (lite/build.py), without a browser or the network ---------------------------
def _build_module():
    import importlib.util

    spec = importlib.util.spec_from_file_location("lite_build", ROOT / "lite" / "build.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_a_package_file_unlike_the_official_lock_fails_the_build(tmp_path: Path, monkeypatch) -> None:
    build = _build_module()
    folder = build.PACKAGES_SOURCE[2]
    bundle = tmp_path / "bundle.whl"
    with zipfile.ZipFile(bundle, "w") as zf:
        zf.writestr(folder + "numpy-2.0.2-x.whl", b"the official bytes")
        zf.writestr(folder + "six-1.16.0-x.whl", b"bytes someone changed")
    monkeypatch.setattr(build, "pip_download", lambda requirement: bundle)
    numpy = {"file_name": "numpy-2.0.2-x.whl", "sha256": hashlib.sha256(b"the official bytes").hexdigest()}
    six = {"file_name": "six-1.16.0-x.whl", "sha256": hashlib.sha256(b"the official bytes of six").hexdigest()}
    absent = {"file_name": "pytz-2024.1-x.whl", "sha256": "0" * 64}

    assert build.packages_from_source([numpy]) == {"numpy-2.0.2-x.whl": b"the official bytes"}
    with pytest.raises(build.BuildError) as error:
        build.packages_from_source([numpy, six, absent])
    message = str(error.value)
    assert f"six-1.16.0-x.whl: sha256 {hashlib.sha256(b'bytes someone changed').hexdigest()}, the official lock says {six['sha256']}" in message
    assert "pytz-2024.1-x.whl: not in bundle.whl" in message
    assert "numpy" not in message


def test_a_notebook_import_pyodide_lacks_fails_the_build() -> None:
    build = _build_module()
    lock = {"numpy": {"name": "numpy", "imports": ["numpy"], "depends": []},
            "matplotlib": {"name": "matplotlib", "imports": ["matplotlib", "pylab"], "depends": ["numpy"]}}
    imports = {"numpy": "01 cell 1", "json": "01 cell 2", "needle": "01 cell 1", "pylab": "07 cell 3"}
    assert build.lock_packages_for(imports, lock) == {"numpy", "matplotlib"}
    with pytest.raises(build.BuildError, match="02 cell 4 imports autograder, which Pyodide"):
        build.lock_packages_for({**imports, "autograder": "02 cell 4"}, lock)
    assert build.top_level_imports("%matplotlib inline\nimport a.b, c\nfrom d.e import f\nfrom . import g", "x") == {"a", "c", "d"}
