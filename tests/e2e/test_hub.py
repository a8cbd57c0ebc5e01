"""The class on JupyterHub (deploy/jupyterhub/jupyterhub_config.py), as real processes on 127.0.0.1.

JupyterHub starts in its trial mode (DummyAuthenticator, SimpleLocalProcessSpawner: no Unix
accounts needed), with configurable-http-proxy from npm, on free ports, its state in a scratch
folder, serving a scratch copy of the course root and a scratch shared exchange. Through the
Hub's REST API an instructor and two students log in (password: a token each), start their
servers; then, through their own servers' REST APIs, as JupyterLab's panels would:

  instructor  formgrader: generate and release lecture8
  students    Assignments panel: list, fetch; edit the notebooks (contents API); submit
  instructor  formgrader: collect; a kernel runs `python -m autograder grade . --gradebook`,
              `python -m autograder nbgrader-feedback` and `nbgrader export` (the grader's
              scores); formgrader: release feedback
  students    Assignments panel: fetch feedback; the page (contents API) is this grader's

and the students' servers have the course's kernel (needle imports in it) and no formgrader.
Everything is stopped at the end, also on failure: the Hub's shutdown API, then a kill of every
process that names the scratch folder in its environment.

Not part of `make test` (about a minute, needs JupyterHub and Node.js): `make test-hub` installs
the hub extra and configurable-http-proxy and runs it (pytest -m hub tests/e2e/test_hub.py).
"""
from __future__ import annotations

import asyncio
import csv
import json
import os
import re
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
import uuid
from pathlib import Path

import pytest

from autograder import demo
from autograder.course import Course

ROOT = Path(__file__).resolve().parents[2]
CONFIG = ROOT / "deploy" / "jupyterhub" / "jupyterhub_config.py"
ARTIFACTS = ROOT / "test-artifacts" / "hub"
ASSIGNMENT = "lecture8"
COURSE_ID = "needle-course"
INSTRUCTOR, STUDENTS = "teacher", ("alice", "bob")
START_TIMEOUT = 180  # seconds: the hub, or a user's server, on a loaded 2-core machine
HIDDEN_MARKERS = ("BEGIN HIDDEN TESTS", "END HIDDEN TESTS", "check_task")


def _proxy_command() -> str | None:
    """configurable-http-proxy where jupyterhub_config.py looks for it."""
    cache = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    cached = cache / "needle-course" / "configurable-http-proxy" / "node_modules" / ".bin" / "configurable-http-proxy"
    found = shutil.which("configurable-http-proxy") or str(cached)
    return found if os.access(found, os.X_OK) else None


def _missing() -> str | None:
    """What this test needs and does not find (make test-hub installs all of it)."""
    if not sys.platform.startswith("linux"):
        return "JupyterHub's local spawners and nbgrader's exchange need Linux here"
    try:
        import jupyterhub  # noqa: F401
    except ImportError:
        return 'the hub extra is not installed: pip install -e ".[hub]" (make test-hub does)'
    if _proxy_command() is None:
        return "configurable-http-proxy not found: npm install -g configurable-http-proxy (make test-hub installs it)"
    return None


# Not part of `make test`: skipped unless asked for with -m hub; once asked for, a missing tool
# is a failure, not a skip.
REQUESTED = "'hub' in (config.getoption('markexpr') or '')"
pytestmark = [
    pytest.mark.hub,
    pytest.mark.skipif(f"not ({REQUESTED})", reason="the class on JupyterHub, end to end (about a minute): run with make test-hub"),
]


def _free_ports(n: int) -> list[int]:
    sockets = [socket.socket(socket.AF_INET, socket.SOCK_STREAM) for _ in range(n)]
    try:
        for s in sockets:
            s.bind(("127.0.0.1", 0))
        return [s.getsockname()[1] for s in sockets]
    finally:
        for s in sockets:
            s.close()


class HttpError(AssertionError):
    pass


class Client:
    """One logged-in user: the Hub's REST API and their own server's, with their API token."""

    def __init__(self, base: str, name: str, token: str):
        self.base, self.name, self.token = base, name, token

    def request(self, method: str, path: str, body=None, expect=(200, 201, 202, 204), raw=False, timeout=120):
        data = None if body is None else json.dumps(body).encode()
        req = urllib.request.Request(self.base + path, data=data, method=method,
                                     headers={"Authorization": f"token {self.token}", "Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(req, timeout=timeout) as response:
                status, payload = response.status, response.read()
        except urllib.error.HTTPError as exc:
            status, payload = exc.code, exc.read()
        if status not in expect:
            raise HttpError(f"{method} {path} as {self.name}: HTTP {status}: {payload[:2000]!r}")
        if raw:
            return status, payload
        return json.loads(payload) if payload.strip() else None

    # --- the user's server ---
    def server(self, method: str, path: str, body=None, **kw):
        return self.request(method, f"/user/{self.name}{path}", body, **kw)

    def action(self, path: str, body=None):
        """An nbgrader panel's action: the handlers answer 200 with {"success": ..., ...}."""
        result = self.server("POST" if body is not None else "GET", path, body)
        assert result.get("success"), f"{path} as {self.name}: {json.dumps(result)[:3000]}"
        return result

    def execute(self, code: str, kernel: str = "needle-course", timeout: float = 300) -> str:
        """Run code in a new kernel of this user's server (over its websocket); return stdout."""
        kernel_id = self.server("POST", "/api/kernels", {"name": kernel})["id"]
        try:
            return asyncio.run(self._execute(kernel_id, code, timeout))
        finally:
            self.server("DELETE", f"/api/kernels/{kernel_id}")

    async def _execute(self, kernel_id: str, code: str, timeout: float) -> str:
        from tornado.httpclient import HTTPRequest
        from tornado.websocket import websocket_connect

        url = self.base.replace("http://", "ws://") + f"/user/{self.name}/api/kernels/{kernel_id}/channels"
        conn = await asyncio.wait_for(websocket_connect(HTTPRequest(url, headers={"Authorization": f"token {self.token}"})), 60)
        msg_id = uuid.uuid4().hex
        await conn.write_message(json.dumps({
            "header": {"msg_id": msg_id, "msg_type": "execute_request", "username": self.name,
                       "session": uuid.uuid4().hex, "date": "", "version": "5.3"},
            "parent_header": {}, "metadata": {}, "channel": "shell", "buffers": [],
            "content": {"code": code, "silent": False, "store_history": False, "user_expressions": {},
                        "allow_stdin": False, "stop_on_error": True},
        }))
        out, reply, idle = [], None, False
        deadline = time.monotonic() + timeout
        while reply is None or not idle:
            raw = await asyncio.wait_for(conn.read_message(), max(1.0, deadline - time.monotonic()))
            assert raw is not None, f"{self.name}'s kernel websocket closed: {''.join(out)}"
            msg = json.loads(raw)
            if msg.get("parent_header", {}).get("msg_id") != msg_id:
                continue
            kind = msg["header"]["msg_type"]
            if kind == "stream":
                out.append(msg["content"]["text"])
            elif kind == "error":
                out.append("\n".join(msg["content"]["traceback"]))
            elif kind == "execute_reply":
                reply = msg["content"]["status"]
            elif kind == "status" and msg["content"]["execution_state"] == "idle":
                idle = True
        conn.close()
        assert reply == "ok", f"code failed in {self.name}'s kernel:\n{''.join(out)}"
        return "".join(out)


def _processes_with(text: str) -> list[int]:
    """Pids whose environment names ``text`` (the hub, proxy, servers and kernels of this test)."""
    pids = []
    for entry in Path("/proc").glob("[0-9]*"):
        try:
            if text.encode() in (entry / "environ").read_bytes() and int(entry.name) != os.getpid():
                pids.append(int(entry.name))
        except (OSError, ValueError):
            pass
    return pids


@pytest.fixture(scope="module")
def hub(tmp_path_factory):
    missing = _missing()
    if missing:
        pytest.fail(f"-m hub asks for the JupyterHub test, but {missing}", pytrace=False)
    base = tmp_path_factory.mktemp("hub")
    root = base / "course-root"
    (root / "autograder").mkdir(parents=True)
    shutil.copy(ROOT / "nbgrader_config.py", root)
    shutil.copytree(ROOT / "solutions", root / "solutions")
    shutil.copytree(ROOT / "autograder" / "suites", root / "autograder" / "suites")
    exchange = base / "exchange"  # a shared exchange, as on a class server
    exchange.mkdir()
    exchange.chmod(0o1777)
    password = secrets.token_urlsafe(16)
    port, hub_port, api_port = _free_ports(3)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("JUPYTER", "NBGRADER", "NEEDLE_", "CONFIGPROXY"))}
    env.update(
        PATH=os.pathsep.join([str(Path(sys.executable).parent), str(Path(_proxy_command()).parent), env.get("PATH", "")]),
        NEEDLE_HUB_TRIAL="1", NEEDLE_HUB_PASSWORD=password,
        NEEDLE_HUB_INSTRUCTORS=INSTRUCTOR, NEEDLE_HUB_STUDENTS=",".join(STUDENTS),
        NEEDLE_COURSE_ROOT=str(root), NBGRADER_EXCHANGE=str(exchange), NEEDLE_HUB_STATE=str(base / "state"),
    )
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    log_path = ARTIFACTS / "jupyterhub.log"
    log = log_path.open("w")
    process = subprocess.Popen(
        [sys.executable, "-m", "jupyterhub", "-f", str(CONFIG), "--ip", "127.0.0.1", "--port", str(port),
         f"--JupyterHub.hub_port={hub_port}", f"--ConfigurableHTTPProxy.api_url=http://127.0.0.1:{api_port}"],
        cwd=base, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    url = f"http://127.0.0.1:{port}"
    admin = None
    try:
        deadline = time.monotonic() + START_TIMEOUT
        while True:
            assert process.poll() is None, f"jupyterhub exited ({process.returncode}):\n{log_path.read_text()[-4000:]}"
            try:
                with urllib.request.urlopen(f"{url}/hub/api/", timeout=5) as r:
                    if r.status == 200:
                        break
            except OSError:
                pass
            assert time.monotonic() < deadline, f"JupyterHub did not answer in {START_TIMEOUT} s:\n{log_path.read_text()[-4000:]}"
            time.sleep(0.5)
        users = {name: login(url, name, password) for name in (INSTRUCTOR, *STUDENTS)}
        admin = users[INSTRUCTOR]
        yield {"url": url, "root": root, "exchange": exchange, "users": users, "password": password, "log": log_path}
    finally:
        _stop(process, admin, str(base))
        log.close()


def login(url: str, name: str, password: str) -> Client:
    """The Hub's REST API: a token for the user, in exchange for their password."""
    anonymous = Client(url, name, token="")
    req = urllib.request.Request(f"{url}/hub/api/users/{name}/tokens", method="POST",
                                 data=json.dumps({"auth": {"username": name, "password": password}}).encode())
    with urllib.request.urlopen(req, timeout=60) as r:
        token = json.loads(r.read())["token"]
    anonymous.token = token
    return anonymous


def _stop(process: subprocess.Popen, admin: Client | None, marker: str) -> None:
    if process.poll() is None and admin is not None:
        try:  # the Hub stops every server and the proxy, then exits
            admin.request("POST", "/hub/api/shutdown", {"servers": True, "proxy": True}, timeout=30)
            process.wait(timeout=60)
        except (OSError, AssertionError, subprocess.TimeoutExpired):
            pass
    for sig in (signal.SIGTERM, signal.SIGKILL):
        if process.poll() is None:
            try:
                os.killpg(process.pid, sig)
                process.wait(timeout=20)
            except (ProcessLookupError, subprocess.TimeoutExpired):
                pass
    for pid in _processes_with(marker):  # anything left: servers and kernels run in sessions of their own
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass


def start_servers(clients: list[Client]) -> None:
    for c in clients:
        c.request("POST", f"/hub/api/users/{c.name}/server", {}, expect=(201, 202))
    deadline = time.monotonic() + START_TIMEOUT
    for c in clients:
        while not (c.request("GET", f"/hub/api/users/{c.name}")["servers"].get("", {}).get("ready")):
            assert time.monotonic() < deadline, f"{c.name}'s server did not start in {START_TIMEOUT} s"
            time.sleep(0.5)


def edit_notebook(client: Client, path: str, solutions: dict) -> int:
    """What the student does in JupyterLab: fill the stubs, save (the contents API)."""
    model = client.server("GET", f"/api/contents/{urllib.parse.quote(path)}?content=1")
    nb, n = model["content"], 0
    for cell in nb["cells"]:
        meta = cell.get("metadata", {}).get("nbgrader", {})
        if meta.get("solution") and meta.get("grade_id") in solutions:
            cell["source"] = solutions[meta["grade_id"]]
            n += 1
    client.server("PUT", f"/api/contents/{urllib.parse.quote(path)}", {"type": "notebook", "format": "json", "content": nb})
    return n


def disabled_lab_extensions(client: Client) -> set[str]:
    """JupyterLab's page config (in the /lab page) lists the extensions it does not load."""
    _, page = client.server("GET", "/lab", raw=True)
    text = page.decode()
    start = text.index('id="jupyter-config-data"')
    config = json.loads(text[text.index(">", start) + 1:text.index("</script>", start)])
    return set(config.get("disabledExtensions", []))


def test_the_class_on_jupyterhub(hub):
    users = hub["users"]
    teacher, students = users[INSTRUCTOR], [users[s] for s in STUDENTS]
    course = {"course_id": COURSE_ID, "assignment_id": ASSIGNMENT}
    started = time.monotonic()

    # Login checks the password.
    with pytest.raises(urllib.error.HTTPError) as refused:
        login(hub["url"], "alice", hub["password"] + "x")
    assert refused.value.code == 403

    start_servers([teacher, *students])

    # The instructor has formgrader; students have neither it nor a way to it.
    assert teacher.server("GET", "/formgrader/api/status")["status"] is True
    assert "@jupyter/nbgrader:formgrader" not in disabled_lab_extensions(teacher)
    for s in students:
        status, _ = s.server("GET", "/formgrader/api/status", expect=(404,), raw=True)
        assert status == 404
        assert {"@jupyter/nbgrader:formgrader", "@jupyter/nbgrader:create-assignment"} <= disabled_lab_extensions(s)
        assert "needle-course" in s.server("GET", "/api/kernelspecs")["kernelspecs"]

    # Instructor: generate and release lecture8 (formgrader's buttons).
    teacher.action(f"/formgrader/api/assignment/{ASSIGNMENT}/assign", {})
    teacher.action(f"/formgrader/api/assignment/{ASSIGNMENT}/release", {})
    released = sorted(p.name for p in (hub["exchange"] / COURSE_ID / "outbound" / ASSIGNMENT).glob("*.ipynb"))
    assert released == sorted(p.name for p in (ROOT / "course" / ASSIGNMENT).glob("*.ipynb"))

    # Students: the Assignments panel lists lecture8; fetch, edit, submit.
    solutions = demo.solutions_by_grade_id(Course.locate(ROOT).assignment(ASSIGNMENT))
    for s in students:
        listed = s.action(f"/assignments?course_id={COURSE_ID}")["value"]
        assert [(a["assignment_id"], a["status"]) for a in listed] == [(ASSIGNMENT, "released")]
        s.action("/assignments/fetch", course)
        fetched = sorted(e["name"] for e in s.server("GET", f"/api/contents/{ASSIGNMENT}")["content"])
        assert fetched == sorted(released + ["tasks.json"])  # the visible cells' ladders come with the notebooks
        for name in released if s.name == "alice" else released[:1]:  # bob only does the first notebook
            assert edit_notebook(s, f"{ASSIGNMENT}/{name}", solutions) > 0
        s.action("/assignments/submit", course)

    # The course's kernel runs needle, in the student's server.
    out = students[0].execute("import needle, sys\nprint(needle.__name__, sys.prefix)")
    assert out.split() == ["needle", sys.prefix]

    # Instructor: collect (formgrader), grade with this grader and place its feedback (a kernel of
    # the instructor's server, in the course root), release the feedback (formgrader).
    teacher.action(f"/formgrader/api/assignment/{ASSIGNMENT}/collect", {})
    assert sorted(p.name for p in (hub["root"] / "submitted").iterdir()) == sorted(STUDENTS)
    out = teacher.execute(
        "import os, subprocess, sys\n"
        "root = os.environ['NEEDLE_COURSE_ROOT']\n"
        "for module, *args in (['autograder', 'grade', root, '--out', 'grades', '--gradebook'],\n"
        "                      ['autograder', 'nbgrader-feedback', root, '--from', 'grades'],\n"
        "                      ['nbgrader', 'export', '--to', 'export.csv']):\n"
        "    r = subprocess.run([sys.executable, '-m', module, *args], cwd=root, capture_output=True, text=True)\n"
        "    print(r.stdout, r.stderr)\n"
        "    assert r.returncode == 0, (module, r.returncode)\n")
    assert f"alice: {len(released)} page(s)" in out and f"bob: {len(released)} page(s)" in out
    totals: dict[str, list[float]] = {}
    first_max = 0.0
    for row in csv.DictReader((hub["root"] / "grades" / "grades.csv").open(encoding="utf-8")):
        t = totals.setdefault(row["student"], [0.0, 0.0])
        t[0] += float(row["score"])
        t[1] += float(row["max_score"])
        if row["student"] == "bob" and row["notebook"] == Path(released[0]).stem:
            first_max += float(row["max_score"])
    maximum = totals["alice"][1]
    assert totals == {"alice": [maximum, maximum], "bob": [first_max, maximum]} and first_max > 0, out
    # nbgrader's gradebook holds the grader's scores (--gradebook): nbgrader export shows them.
    exported = {r["student_id"]: (float(r["score"]), float(r["max_score"]))
                for r in csv.DictReader((hub["root"] / "export.csv").open(encoding="utf-8"))}
    assert exported == {"alice": (maximum, maximum), "bob": (first_max, maximum)}
    teacher.action(f"/formgrader/api/assignment/{ASSIGNMENT}/release_feedback", {})

    # Students: fetch feedback in the Assignments panel; it is this grader's page.
    for s in students:
        s.action("/assignments/fetch_feedback", course)
        listed = s.action(f"/assignments?course_id={COURSE_ID}")["value"]
        submitted = [a for a in listed if a["status"] == "submitted"]
        assert len(submitted) == 1 and len(submitted[0]["submissions"]) == 1
        submission = submitted[0]["submissions"][0]
        assert submission["has_local_feedback"] and submission["local_feedback_path"]
        folder = submission["local_feedback_path"]
        pages = sorted(e["name"] for e in s.server("GET", f"/api/contents/{urllib.parse.quote(folder)}")["content"])
        assert pages == [n.replace(".ipynb", ".html") for n in released]
        graders_page = (hub["root"] / "grades" / s.name / "feedback.html").read_text(encoding="utf-8")
        sections = sorted(re.findall(r"<h2 id='([^']+)'>", graders_page))
        for page in pages:
            model = s.server("GET", f"/api/contents/{urllib.parse.quote(folder + '/' + page)}?content=1&type=file&format=text")
            # the grader's page of this student, opening on the notebook it is the feedback of
            opened = re.findall(r"<h2 id='([^']+)'>", model["content"])
            assert opened and opened[0] == page.removesuffix(".html") and sorted(opened) == sections, (
                f"{s.name}'s {page} is not the grader's feedback page opening on its notebook")
            assert f"<h1>Feedback for {s.name}</h1>" in model["content"]
        assert f"Feedback for {s.name}" in graders_page
        for marker in HIDDEN_MARKERS:
            assert marker not in graders_page
    print(f"hub round trip: {time.monotonic() - started:.1f} s after login")
