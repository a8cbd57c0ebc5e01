"""Browser tests: the student path in JupyterLab and the feedback page, in Chromium via Playwright.

They run only when the marker expression asks for them: ``make test-browser`` runs
``pytest -m e2e tests/e2e``. A plain ``pytest`` (``make test``) deselects them, so the suite
needs neither a browser nor the ``e2e`` extra. When asked for but the extra
(``pip install -e ".[e2e]"``) or Chromium is missing, they skip with a message saying what to
install; ``make test-browser`` installs both first, so there they run.

Chromium is the system's (Debian's ``chromium`` package), not a Playwright download:
``CHROMIUM=/path/to/chrome`` chooses another binary.
"""
from __future__ import annotations

import contextlib
import json
import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
RELEASE = ROOT / "course" / "lecture8"
# Screenshots and logs, kept by CI as artifacts (git-ignored).
ARTIFACTS = ROOT / "test-artifacts" / "browser"
# Without the background-networking flags Chromium's own connections are refused on a closed network.
CHROMIUM_FLAGS = [
    "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]
SERVER_START_TIMEOUT = 120  # seconds; JupyterLab imports a lot on a loaded 2-core machine


def chromium_path() -> str:
    """$CHROMIUM, else ``chromium`` on PATH, else Debian's /usr/bin/chromium (as .ci/install-chromium)."""
    return os.environ.get("CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"


def chromium_executable() -> str | None:
    path = chromium_path()
    return path if os.access(path, os.X_OK) else None


def _requested(config: pytest.Config) -> bool:
    return "e2e" in (config.getoption("markexpr") or "")


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "e2e: drives a real browser (Chromium via Playwright); run with make test-browser")
    # pytest-playwright's own base_url fixture trips a pytest 9 deprecation that this project cannot fix.
    config.addinivalue_line("filterwarnings", "ignore:Session-scoped fixtures defined as instance methods:DeprecationWarning")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    mine = [item for item in items if item.get_closest_marker("e2e")]
    if not mine:
        return
    if not _requested(config):
        items[:] = [item for item in items if not item.get_closest_marker("e2e")]
        config.hook.pytest_deselected(items=mine)
        config._e2e_deselected = len(mine)  # for the terminal summary
        return
    try:
        import pytest_playwright  # noqa: F401
    except ImportError:
        reason = 'the e2e extra is not installed: pip install -e ".[e2e]" (make test-browser does)'
    else:
        reason = None if chromium_executable() else (
            f"no Chromium at {chromium_path()}: apt-get install chromium, or set CHROMIUM=/path (make test-browser installs it)")
    if reason:
        for item in mine:
            item.add_marker(pytest.mark.skip(reason=reason))


def pytest_terminal_summary(terminalreporter, exitstatus, config) -> None:
    n = getattr(config, "_e2e_deselected", 0)
    if n:
        terminalreporter.write_line(f"tests/e2e: {n} browser test(s) deselected; run them with `make test-browser` (pytest -m e2e tests/e2e)")


# --- Playwright: the system's Chromium ----------------------------------------------------------
@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args: dict) -> dict:
    """pytest-playwright's launch options (--headed, --slowmo) plus the system Chromium.

    Playwright gives every launch a fresh profile (its own --user-data-dir) and adds --headless
    unless --headed.
    """
    return {**browser_type_launch_args, "executable_path": chromium_executable(), "args": CHROMIUM_FLAGS}


@pytest.fixture(scope="session")
def browser_context_args(browser_context_args: dict) -> dict:
    return {**browser_context_args, "viewport": {"width": 1280, "height": 900}}


@pytest.fixture(scope="session")
def artifacts() -> Path:
    """The screenshot folder, emptied of the previous run's screenshots."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    for old in list(ARTIFACTS.glob("*.png")) + list(ARTIFACTS.glob("*.log")):
        old.unlink()
    return ARTIFACTS


# --- JupyterLab on a scratch copy of the release ------------------------------------------------
@dataclass
class Lab:
    url: str  # http://127.0.0.1:PORT
    token: str
    root: Path  # the served copy of course/lecture8 (a student's working folder)
    log: Path

    def page_url(self, path: str) -> str:
        return f"{self.url}{path}?token={self.token}"

    def api(self, method: str, path: str, timeout: float = 10) -> dict:
        request = urllib.request.Request(
            f"{self.url}{path}", method=method, headers={"Authorization": f"token {self.token}"},
            data=b"" if method == "POST" else None)
        with urllib.request.urlopen(request, timeout=timeout) as response:
            body = response.read()
        return json.loads(body) if body else {}


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _lab_environment(home: Path) -> dict:
    """A fresh Jupyter user: own config, data, runtime, settings and workspace folders.

    The data folder holds no kernels, so the notebook's ``python3`` kernel is ipykernel's
    native one: this venv's Python (the one running the server). JupyterLab's news and update
    checks are switched off: the toast would cover the notebook, and the network is closed.
    """
    env = {k: v for k, v in os.environ.items() if not k.startswith(("JUPYTER", "IPYTHON", "PYTHONPATH"))}
    dirs = {name: home / name for name in ("config", "data", "runtime", "settings", "workspaces", "ipython")}
    for d in dirs.values():
        d.mkdir(parents=True)
    env.update(
        JUPYTER_CONFIG_DIR=str(dirs["config"]), JUPYTER_DATA_DIR=str(dirs["data"]),
        JUPYTER_RUNTIME_DIR=str(dirs["runtime"]), JUPYTERLAB_SETTINGS_DIR=str(dirs["settings"]),
        JUPYTERLAB_WORKSPACES_DIR=str(dirs["workspaces"]), IPYTHONDIR=str(dirs["ipython"]),
        PATH=f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}",
    )
    notification = dirs["settings"] / "@jupyterlab" / "apputils-extension" / "notification.jupyterlab-settings"
    notification.parent.mkdir(parents=True)
    notification.write_text(json.dumps({"fetchNews": "false", "checkForUpdates": False}))
    return env


def _processes_mentioning(text: str) -> list[int]:
    """Pids whose command line mentions ``text`` (our kernels name our runtime folder)."""
    pids = []
    for entry in Path("/proc").glob("[0-9]*"):
        try:
            if text.encode() in (entry / "cmdline").read_bytes():
                pids.append(int(entry.name))
        except OSError:
            pass
    return pids


def _stop(lab: Lab, process: subprocess.Popen, runtime: Path) -> None:
    """Ask the server to shut down (it stops its kernels); then SIGTERM, then SIGKILL."""
    if process.poll() is None:
        try:
            lab.api("POST", "/api/shutdown")
        except (OSError, urllib.error.URLError):
            pass
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            for sig, wait in ((signal.SIGTERM, 15), (signal.SIGKILL, 15)):
                try:
                    os.killpg(process.pid, sig)
                    process.wait(timeout=wait)
                    break
                except (ProcessLookupError, subprocess.TimeoutExpired):
                    continue
    # Kernels run in sessions of their own: any left behind by a killed server names our runtime folder.
    if Path("/proc").is_dir():
        for pid in _processes_mentioning(str(runtime)):
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass


@contextlib.contextmanager
def serving(command: list[str], cwd: Path, env: dict, lab: Lab):
    """Run the JupyterLab ``command`` (its output to ``lab.log``) until it answers on ``lab.url``;
    yield; stop it, its kernels with it, even on failure."""
    with open(lab.log, "wb") as log_file:
        process = subprocess.Popen(command, cwd=cwd, env=env, stdin=subprocess.DEVNULL, stdout=log_file,
                                   stderr=subprocess.STDOUT, start_new_session=True)
    try:
        deadline = time.monotonic() + SERVER_START_TIMEOUT
        while True:
            if process.poll() is not None:
                pytest.fail(f"JupyterLab exited with {process.returncode} before serving; log:\n{lab.log.read_text()[-3000:]}")
            try:
                lab.api("GET", "/api/status", timeout=5)
                break
            except (OSError, urllib.error.URLError):
                if time.monotonic() > deadline:
                    pytest.fail(f"JupyterLab did not answer on {lab.url} within {SERVER_START_TIMEOUT} s; log:\n{lab.log.read_text()[-3000:]}")
                time.sleep(0.5)
        yield lab
    finally:
        _stop(lab, process, Path(env["JUPYTER_RUNTIME_DIR"]))


def new_lab(root: Path, log: Path) -> Lab:
    """A Lab on a free port of 127.0.0.1 with a fresh token, serving ``root``."""
    return Lab(f"http://127.0.0.1:{_free_port()}", secrets.token_hex(16), root, log)


def as_root_flags() -> list[str]:
    return ["--allow-root"] if hasattr(os, "geteuid") and os.geteuid() == 0 else []


@pytest.fixture
def lab(tmp_path: Path, artifacts: Path):
    """JupyterLab serving a scratch copy of course/lecture8 on 127.0.0.1 (free port, token).

    The copy lives in ``<tmp>/e2e-student/lecture8``, a student's folder in nbgrader's layout,
    so the grader names the student ``e2e-student``. Stopped at teardown, even on failure.
    """
    root = tmp_path / "e2e-student" / "lecture8"
    shutil.copytree(RELEASE, root)
    env = _lab_environment(tmp_path / "jupyter")
    lab = new_lab(root, artifacts / "jupyterlab.log")
    command = [
        sys.executable, "-m", "jupyterlab", "--no-browser", "--ip=127.0.0.1", f"--port={lab.url.rsplit(':', 1)[1]}",
        "--ServerApp.port_retries=0", f"--IdentityProvider.token={lab.token}", f"--ServerApp.root_dir={root}",
        *as_root_flags(),
    ]
    with serving(command, root, env, lab):
        yield lab
