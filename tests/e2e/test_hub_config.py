"""deploy/jupyterhub/jupyterhub_config.py for a class, as far as a machine without systemd allows.

The configuration is loaded as JupyterHub loads it (traitlets' PyFileConfigLoader, in a process
of its own) with a scratch course root, exchange, roster and state. Checked: the roster file (one
name per line, comments, blank lines; a bad name named with its line), the idle culler as a hub
service with the scopes it needs, and, for a class, SystemdSpawner: the configuration refuses a
machine where systemd does not run, and with systemd running (a stand-in `systemctl` on PATH) each user's
server is started, its call to systemd captured, with the memory and CPU limits, private /tmp and
devices, no sudo, and, for students, the course root inaccessible.

What cannot run here: systemd itself (this machine's PID 1 is not systemd), so no unit is really
started and no limit is really enforced; on a class server `systemctl status 'jupyter-*'` shows
them (MemoryMax, CPUQuota). Runs with `make test-hub` (the hub extra).
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = [
    pytest.mark.hub,
    pytest.mark.skipif("not ('hub' in (config.getoption('markexpr') or ''))",
                       reason="the hub's configuration (the hub extra): run with make test-hub"),
]

ROOT = Path(__file__).resolve().parents[2]
CONFIG_DIR = ROOT / "deploy" / "jupyterhub"

# Loads the configuration; for each user given, runs the pre-spawn hook and SystemdSpawner.start
# with systemd's calls replaced, and prints what systemd would have been asked to do.
LOAD = r'''
import asyncio, json, sys
from types import SimpleNamespace
from unittest import mock
from traitlets.config import PyFileConfigLoader

cfg = PyFileConfigLoader("jupyterhub_config.py", path=sys.argv[1]).load_config()
out = {"spawner_class": cfg.JupyterHub.spawner_class, "allowed": sorted(cfg.Authenticator.allowed_users),
       "admins": sorted(cfg.Authenticator.admin_users), "services": cfg.JupyterHub.services, "roles": cfg.JupyterHub.load_roles}
if cfg.JupyterHub.spawner_class == "systemd":
    import systemdspawner.systemd as systemd
    from jupyterhub.objects import Hub
    from systemdspawner import SystemdSpawner

    units = []

    async def start_transient_service(unit, **kw):
        units.append(kw)

    async def no(*args, **kwargs):
        return False

    for name in sys.argv[2:]:
        user = SimpleNamespace(name=name, url=f"/user/{name}/", escaped_name=name, id=1, server=None, orm_user=None)
        spawner = SystemdSpawner(user=user, hub=Hub(), config=cfg, api_token="token", oauth_client_id="client")
        spawner.username_template = "root"  # a Unix account this machine has
        cfg.Spawner.pre_spawn_hook(spawner)
        with mock.patch.object(systemd, "start_transient_service", start_transient_service), \
             mock.patch.object(systemd, "service_running", no), mock.patch.object(systemd, "service_failed", no), \
             mock.patch.object(SystemdSpawner, "poll", lambda self: asyncio.sleep(0)):
            asyncio.run(spawner.start())
        out[name] = {"mem_limit": spawner.mem_limit, "cpu_limit": spawner.cpu_limit, "properties": units[-1]["properties"],
                     "cmd": units[-1]["cmd"], "env": units[-1]["environment_variables"]}
print(json.dumps(out, default=str))
'''

FAKE_SYSTEMCTL = """#!/bin/sh
case "$1" in
  --version) echo "systemd 252 (252.22-1)";;
  is-system-running) echo running;;
esac
"""


@pytest.fixture
def scratch(tmp_path: Path) -> dict:
    """A course root, an exchange (mode 1777), a state folder, students' config, a roster, and a
    bin folder with a stand-in configurable-http-proxy (the config only checks it is there)."""
    root, exchange, tools = tmp_path / "course", tmp_path / "exchange", tmp_path / "bin"
    for folder in (root, exchange, tools):
        folder.mkdir()
    (root / "nbgrader_config.py").write_text("")
    exchange.chmod(0o1777)
    (tools / "configurable-http-proxy").write_text("#!/bin/sh\n")
    (tools / "configurable-http-proxy").chmod(0o755)
    roster = tmp_path / "roster.txt"
    roster.write_text("# section A\nalice\n\nbob   # joined late\n  carol\n")
    env = {k: v for k, v in os.environ.items() if not k.startswith(("JUPYTER", "NBGRADER", "NEEDLE_", "CONFIGPROXY"))}
    env.update(PATH=f"{tools}{os.pathsep}{env.get('PATH', '')}", NEEDLE_COURSE_ROOT=str(root), NBGRADER_EXCHANGE=str(exchange),
               NEEDLE_HUB_STATE=str(tmp_path / "state"), NEEDLE_HUB_STUDENT_CONFIG=str(CONFIG_DIR / "student"),
               NEEDLE_HUB_ROSTER=str(roster), NEEDLE_HUB_INSTRUCTORS="teacher")
    return {"env": env, "tools": tools, "root": root, "roster": roster, "tmp": tmp_path}


def load(env: dict, *users: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", LOAD, str(CONFIG_DIR), *users], env=env, capture_output=True, text=True, timeout=120)


def loaded(env: dict, *users: str) -> dict:
    result = load(env, *users)
    assert result.returncode == 0, result.stderr[-3000:]
    return json.loads(result.stdout.splitlines()[-1])


def with_systemd(scratch: dict) -> dict:
    (scratch["tools"] / "systemctl").write_text(FAKE_SYSTEMCTL)
    (scratch["tools"] / "systemctl").chmod(0o755)
    return scratch["env"]


def test_the_roster_names_the_students(scratch: dict) -> None:
    config = loaded({**scratch["env"], "NEEDLE_HUB_TRIAL": "1", "NEEDLE_HUB_PASSWORD": "p", "NEEDLE_HUB_STUDENTS": "dave"})
    assert config["allowed"] == ["alice", "bob", "carol", "dave", "teacher"]
    assert config["admins"] == ["teacher"]
    # ... and nbgrader's student list, which the grader's --gradebook roster reads (a 0 for nothing submitted)
    from autograder.nbgrader_db import roster

    assert roster(scratch["root"] / "gradebook.db") == ["alice", "bob", "carol", "dave"]
    (scratch["roster"]).write_text("alice\nerin\n")  # the hub restarted with a new roster: erin added, nobody removed
    loaded({**scratch["env"], "NEEDLE_HUB_TRIAL": "1", "NEEDLE_HUB_PASSWORD": "p"})
    assert roster(scratch["root"] / "gradebook.db") == ["alice", "bob", "carol", "dave", "erin"]


@pytest.mark.parametrize("roster, says", [
    ("alice\nBob Smith\n", "line 2: 'Bob Smith' is not a user name"),
    ("# nobody yet\n\n", "names nobody"),
])
def test_a_bad_roster_is_named(scratch: dict, roster: str, says: str) -> None:
    scratch["roster"].write_text(roster)
    result = load({**scratch["env"], "NEEDLE_HUB_TRIAL": "1", "NEEDLE_HUB_PASSWORD": "p"})
    assert result.returncode != 0 and says in result.stderr, result.stderr[-2000:]


def test_the_idle_culler_is_a_hub_service(scratch: dict) -> None:
    config = loaded({**scratch["env"], "NEEDLE_HUB_TRIAL": "1", "NEEDLE_HUB_PASSWORD": "p", "NEEDLE_HUB_IDLE_TIMEOUT": "1800"})
    [service] = config["services"]
    assert service["command"][1:] == ["-m", "jupyterhub_idle_culler", "--timeout=1800"]
    assert Path(service["command"][0]).name.startswith("python")
    [role] = config["roles"]
    assert role["services"] == [service["name"]]
    assert set(role["scopes"]) == {"list:users", "read:users:activity", "read:servers", "delete:servers"}
    help_text = subprocess.run(service["command"][:3] + ["--help"], capture_output=True, text=True, timeout=120)
    assert help_text.returncode == 0 and "--timeout" in help_text.stdout  # the culler is installed where the hub runs


def test_a_class_needs_systemd(scratch: dict) -> None:
    # What systemctl says where systemd is installed but is not PID 1 (a container, this machine).
    (scratch["tools"] / "systemctl").write_text("#!/bin/sh\necho offline\nexit 1\n")
    (scratch["tools"] / "systemctl").chmod(0o755)
    result = load(scratch["env"])
    assert result.returncode != 0 and "limits need SystemdSpawner on a machine run by systemd" in result.stderr, result.stderr[-2000:]


def test_systemd_is_asked_for_each_users_limits(scratch: dict) -> None:
    config = loaded({**with_systemd(scratch), "NEEDLE_HUB_MEM_LIMIT": "768M", "NEEDLE_HUB_CPU_LIMIT": "0.5"}, "alice", "teacher")
    assert config["spawner_class"] == "systemd"
    alice, teacher = config["alice"], config["teacher"]
    assert (alice["mem_limit"], alice["cpu_limit"]) == (768 * 2**20, 0.5)
    assert {k: alice["properties"][k] for k in ("MemoryMax", "CPUQuota", "PrivateTmp", "PrivateDevices", "NoNewPrivileges")} == {
        "MemoryMax": 768 * 2**20, "CPUQuota": "50%", "PrivateTmp": "yes", "PrivateDevices": "yes", "NoNewPrivileges": "yes"}
    assert alice["properties"]["InaccessiblePaths"] == str(scratch["root"])  # no student reads the solutions
    assert alice["env"]["JUPYTER_CONFIG_PATH"] == str(CONFIG_DIR / "student")
    # Instructors grade on their server: more memory and cores by default, and the course root.
    assert (teacher["properties"]["MemoryMax"], teacher["properties"]["CPUQuota"]) == (4 * 2**30, "200%")
    assert "InaccessiblePaths" not in teacher["properties"]
    assert teacher["env"]["NEEDLE_COURSE_ROOT"] == str(scratch["root"])


@pytest.mark.parametrize("variable", ["NEEDLE_HUB_STUDENT_CONFIG", "NBGRADER_EXCHANGE"])
def test_what_students_need_must_lie_outside_the_course_root(scratch: dict, variable: str) -> None:
    inside = scratch["root"] / "inside"
    inside.mkdir(mode=0o1777)
    inside.chmod(0o1777)
    result = load({**with_systemd(scratch), variable: str(inside)})
    assert result.returncode != 0 and f"{variable}={inside} is inside the course root" in result.stderr, result.stderr[-2000:]


@pytest.mark.parametrize("variable, value, says", [
    ("NEEDLE_HUB_MEM_LIMIT", "lots", "expected a size such as 512M"),
    ("NEEDLE_HUB_CPU_LIMIT", "-1", "expected a positive number of cores"),
])
def test_bad_limits_are_named(scratch: dict, variable: str, value: str, says: str) -> None:
    result = load({**with_systemd(scratch), variable: value})
    assert result.returncode != 0 and says in result.stderr, result.stderr[-2000:]
