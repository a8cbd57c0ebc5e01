"""JupyterHub for a class of needle-course: `jupyterhub -f deploy/jupyterhub/jupyterhub_config.py`.

Students log in, get JupyterLab in their home folder with the course's kernel (needle-course),
fetch lecture8 and submit it from the Assignments panel (nbgrader's exchange, shared with the
instructors), and fetch their feedback there. Instructors get JupyterLab on the course root with
formgrader (Nbgrader > Formgrader), the grader (`python -m autograder grade ...`) and the venv on
PATH. Settings (environment variables of the `jupyterhub` process):

  NEEDLE_HUB_ROSTER         a file of the students' user names, one per line (# starts a comment;
                            blank lines are ignored); required unless NEEDLE_HUB_STUDENTS is given
  NEEDLE_HUB_STUDENTS       comma-separated student user names, added to the roster's (a trial)
  NEEDLE_HUB_INSTRUCTORS    comma-separated user names of the instructors (hub admins); required
  NEEDLE_COURSE_ROOT        the instructors' course root (default: this checkout)
  NBGRADER_EXCHANGE         nbgrader's exchange, shared by everyone (default: the course-local
                            <course root>/nbgrader/exchange of nbgrader_config.py); mode 1777
  NEEDLE_HUB_STATE          the hub's database, cookie secret and pid files
                            (default: deploy/jupyterhub/state/, git-ignored)
  NEEDLE_HUB_STUDENT_ENV    the Python environment students' servers run from (default: the
                            one running the hub); it needs the course's packages, jupyterhub and
                            the needle-course kernel (make setup registers it)
  NEEDLE_HUB_STUDENT_CONFIG the students' Jupyter config folder (default: deploy/jupyterhub/student)
  NEEDLE_HUB_MEM_LIMIT      memory of each student's server, kernels included (default 1G)
  NEEDLE_HUB_CPU_LIMIT      cores of each student's server (default 1)
  NEEDLE_HUB_INSTRUCTOR_MEM_LIMIT, NEEDLE_HUB_INSTRUCTOR_CPU_LIMIT
                            the same for instructors, who grade there (default 4G and 2 cores)
  NEEDLE_HUB_IDLE_TIMEOUT   seconds without activity after which a server is stopped (its files
                            stay; the user starts it again by logging in); default 3600
  NEEDLE_HUB_TRIAL=1        try the class on one machine: DummyAuthenticator with the password
                            $NEEDLE_HUB_PASSWORD and SimpleLocalProcessSpawner (homes under
                            $NEEDLE_HUB_STATE/homes). Every user then runs as the hub's own Unix
                            user and can read everything it can, solutions included, and no limit
                            is enforced: for trying out and for tests (tests/e2e/test_hub.py),
                            never for a class.

Without NEEDLE_HUB_TRIAL each user is a Unix account of the machine (PAMAuthenticator; run the hub
as root) and each server a systemd unit (SystemdSpawner, the hub extra): the memory and CPU limits
above are enforced by the kernel's cgroups, /tmp and devices are private, sudo is off, and the
course root (solutions, suites, submissions, gradebook) is inaccessible to students' servers
(InaccessiblePaths), so their environment, Jupyter config and the exchange must live outside it.
The machine must run systemd (`systemctl is-system-running`). jupyterhub-idle-culler runs as a hub
service in both modes. Any other authenticator (OAuth, LTI, ...) drops in below. The hub listens on
127.0.0.1:8000; a class server adds `--ip 0.0.0.0` with `--ssl-key/--ssl-cert` or sits behind an
HTTPS reverse proxy. Past one machine: Zero to JupyterHub on Kubernetes (z2jh.jupyter.org), with
the same course image and a shared volume for the exchange. configurable-http-proxy comes from npm:
on PATH (`npm install -g configurable-http-proxy`) or in the folder `make test-hub` installs it into.
Sizing (students per core and GB): docs/scale.md.
"""
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

c = get_config()  # noqa: F821  (provided by JupyterHub)

HERE = Path(__file__).resolve().parent


def _fail(message: str):
    sys.exit(f"jupyterhub_config.py (needle-course): {message}")


USER_NAME = re.compile(r"[a-z_][a-z0-9_.@-]*")  # a Unix login (JupyterHub lowercases the names it is given)


def _checked(name: str, where: str) -> str:
    if not USER_NAME.fullmatch(name):
        _fail(f"{where}: {name!r} is not a user name (lowercase letters, digits, _ . @ -; not starting with a digit or -)")
    return name


def _names(variable: str) -> set[str]:
    return {_checked(name.strip(), variable) for name in os.environ.get(variable, "").split(",") if name.strip()}


def _roster(variable: str) -> set[str]:
    """The user names of a roster file: one per line; `#` starts a comment; blank lines are skipped."""
    if not os.environ.get(variable):
        return set()
    path = Path(os.environ[variable]).expanduser()
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except OSError as exc:
        _fail(f"{variable}={path}: cannot read the roster ({exc.strerror}); expected a file of user names, one per line")
    names = {_checked(line.split("#", 1)[0].strip(), f"{path}, line {n}") for n, line in enumerate(lines, 1)
             if line.split("#", 1)[0].strip()}
    if not names:
        _fail(f"{variable}={path} names nobody; expected the students' user names, one per line")
    return names


def _path(prefix: Path) -> str:
    return os.pathsep.join([str(prefix / "bin"), "/usr/local/bin", "/usr/bin", "/bin"])


def _number(variable: str, default: float, what: str) -> float:
    try:
        value = float(os.environ.get(variable) or default)
    except ValueError:
        value = 0
    if not value > 0:
        _fail(f"{variable}={os.environ.get(variable)!r}: expected a positive number of {what}")
    return value


def _bytes(variable: str, default: str) -> str:
    value = os.environ.get(variable) or default
    if not re.fullmatch(r"\d+(\.\d+)?[KMGT]", value):
        _fail(f"{variable}={value!r}: expected a size such as 512M, 1G or 1.5G")
    return value


def _folder(variable: str, default: Path) -> Path:
    return Path(os.environ.get(variable) or default).expanduser().resolve()


COURSE_ROOT = _folder("NEEDLE_COURSE_ROOT", HERE.parents[1])
EXCHANGE = _folder("NBGRADER_EXCHANGE", COURSE_ROOT / "nbgrader" / "exchange")
STATE = _folder("NEEDLE_HUB_STATE", HERE / "state")
STUDENT_ENV = _folder("NEEDLE_HUB_STUDENT_ENV", Path(sys.prefix))
STUDENT_CONFIG = _folder("NEEDLE_HUB_STUDENT_CONFIG", HERE / "student")
INSTRUCTOR_CONFIG = HERE / "instructor"
INSTRUCTORS = _names("NEEDLE_HUB_INSTRUCTORS")
STUDENTS = _roster("NEEDLE_HUB_ROSTER") | _names("NEEDLE_HUB_STUDENTS")
TRIAL = os.environ.get("NEEDLE_HUB_TRIAL") == "1"
LIMITS = {  # (memory, cores) of a student's and an instructor's server
    "student": (_bytes("NEEDLE_HUB_MEM_LIMIT", "1G"), _number("NEEDLE_HUB_CPU_LIMIT", 1, "cores")),
    "instructor": (_bytes("NEEDLE_HUB_INSTRUCTOR_MEM_LIMIT", "4G"), _number("NEEDLE_HUB_INSTRUCTOR_CPU_LIMIT", 2, "cores")),
}
IDLE_TIMEOUT = int(_number("NEEDLE_HUB_IDLE_TIMEOUT", 3600, "seconds"))

# --- checks: a hub that starts must be able to serve the class ---------------------------------
if not INSTRUCTORS:
    _fail("set NEEDLE_HUB_INSTRUCTORS to the instructors' user names (comma-separated)")
if not STUDENTS:
    _fail("set NEEDLE_HUB_ROSTER to a file of the students' user names, one per line")
if INSTRUCTORS & STUDENTS:
    _fail(f"{sorted(INSTRUCTORS & STUDENTS)} are both instructors and students")
if not (COURSE_ROOT / "nbgrader_config.py").is_file():
    _fail(f"{COURSE_ROOT} is not a course root: it has no nbgrader_config.py (set NEEDLE_COURSE_ROOT)")
if not (EXCHANGE.is_dir() and os.stat(EXCHANGE).st_mode & 0o1777 == 0o1777):
    _fail(f"nbgrader's exchange {EXCHANGE} must exist with mode 1777 (make setup makes the course-local one; "
          f"else: mkdir -p {EXCHANGE} && chmod 1777 {EXCHANGE})")
for env_prefix in {Path(sys.prefix), STUDENT_ENV}:
    if not (env_prefix / "bin" / "jupyterhub-singleuser").exists():
        _fail(f"{env_prefix} has no bin/jupyterhub-singleuser: pip install 'jupyterhub>=5.0' there (the hub extra)")
if not (STUDENT_ENV / "share" / "jupyter" / "kernels" / "needle-course" / "kernel.json").is_file():
    _fail(f"{STUDENT_ENV} has no needle-course kernel: run make setup (or python -m ipykernel install "
          "--sys-prefix --name needle-course --display-name 'Python 3 (needle-course)' with that environment's Python)")
if TRIAL and not os.environ.get("NEEDLE_HUB_PASSWORD"):
    _fail("NEEDLE_HUB_TRIAL=1 needs NEEDLE_HUB_PASSWORD (the one password of the trial's DummyAuthenticator)")
if not TRIAL:
    # Limits are enforced by systemd; students' servers cannot see the course root.
    try:
        state = subprocess.run(["systemctl", "is-system-running"], capture_output=True, text=True, timeout=30).stdout.strip()
    except (OSError, subprocess.TimeoutExpired):
        state = "absent"
    if state not in ("running", "degraded"):
        _fail(f"systemd is {state or 'not running'} here (systemctl is-system-running): each user's memory and CPU "
              "limits need SystemdSpawner on a machine run by systemd (or NEEDLE_HUB_TRIAL=1 to try the class without them)")
    for variable, folder in (("NEEDLE_HUB_STUDENT_ENV", STUDENT_ENV), ("NEEDLE_HUB_STUDENT_CONFIG", STUDENT_CONFIG),
                             ("NBGRADER_EXCHANGE", EXCHANGE)):
        if folder == COURSE_ROOT or COURSE_ROOT in folder.parents:
            _fail(f"{variable}={folder} is inside the course root {COURSE_ROOT}, which students' servers cannot see: "
                  "put it elsewhere (deploy/jupyterhub/README.md, A class on one server)")

# --- the hub's own state -------------------------------------------------------------------------
STATE.mkdir(parents=True, exist_ok=True)
STATE.chmod(0o700)

# --- the roster reaches nbgrader's student list (the grader's --gradebook roster: a 0 for every
# enrolled student who submitted nothing, in the exports); added, never removed: a student who
# left keeps their grades until the instructor removes them (nbgrader db student remove).
_roster_csv = STATE / "roster.csv"
_roster_csv.write_text("id\n" + "".join(f"{name}\n" for name in sorted(STUDENTS)), encoding="utf-8")
try:
    _imported = subprocess.run([str(Path(sys.prefix) / "bin" / "nbgrader"), "db", "student", "import", str(_roster_csv)],
                               cwd=COURSE_ROOT, env={**os.environ, "PATH": _path(Path(sys.prefix))},
                               capture_output=True, text=True, timeout=300)
except (OSError, subprocess.TimeoutExpired) as exc:
    _fail(f"the roster could not be added to nbgrader's student list in {COURSE_ROOT} ({exc})")
if _imported.returncode != 0:
    _fail(f"the roster could not be added to nbgrader's student list in {COURSE_ROOT} "
          f"(nbgrader db student import: {(_imported.stderr or _imported.stdout).strip()[-500:]})")
c.JupyterHub.db_url = f"sqlite:///{STATE / 'jupyterhub.sqlite'}"
c.JupyterHub.cookie_secret_file = str(STATE / "jupyterhub_cookie_secret")
c.JupyterHub.pid_file = str(STATE / "jupyterhub.pid")
c.ConfigurableHTTPProxy.pid_file = str(STATE / "jupyterhub-proxy.pid")
c.JupyterHub.ip = "127.0.0.1"
c.JupyterHub.port = 8000
c.JupyterHub.hub_ip = "127.0.0.1"

# configurable-http-proxy (npm): on PATH, else where `make test-hub` puts it.
_cache = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
_proxy = shutil.which("configurable-http-proxy") or str(
    _cache / "needle-course" / "configurable-http-proxy" / "node_modules" / ".bin" / "configurable-http-proxy")
if not os.access(_proxy, os.X_OK):
    _fail("configurable-http-proxy not found: npm install -g configurable-http-proxy (or make test-hub, "
          f"which installs it into {Path(_proxy).parents[2]})")
c.ConfigurableHTTPProxy.command = [_proxy]

# --- who may log in --------------------------------------------------------------------------------
c.Authenticator.admin_users = INSTRUCTORS
c.Authenticator.allowed_users = INSTRUCTORS | STUDENTS
if TRIAL:
    c.JupyterHub.authenticator_class = "dummy"
    c.DummyAuthenticator.password = os.environ["NEEDLE_HUB_PASSWORD"]
    c.JupyterHub.spawner_class = "simple"
    c.SimpleLocalProcessSpawner.home_dir_template = str(STATE / "homes" / "{username}")
    if os.geteuid() == 0:  # everyone runs as the hub's user: root, here
        c.SimpleLocalProcessSpawner.args = ["--ServerApp.allow_root=True"]
else:
    c.JupyterHub.authenticator_class = "pam"
    c.JupyterHub.spawner_class = "systemd"  # systemdspawner: a transient unit per server, cgroup limits
    c.SystemdSpawner.isolate_tmp = True
    c.SystemdSpawner.isolate_devices = True
    c.SystemdSpawner.disable_user_sudo = True

# --- idle servers are stopped (files stay): jupyterhub-idle-culler as a hub service ------------------
c.JupyterHub.services = [{
    "name": "idle-culler",
    "command": [sys.executable, "-m", "jupyterhub_idle_culler", f"--timeout={IDLE_TIMEOUT}"],
}]
c.JupyterHub.load_roles = [{
    "name": "idle-culler",
    "scopes": ["list:users", "read:users:activity", "read:servers", "delete:servers"],
    "services": ["idle-culler"],
}]

# --- each user's server ------------------------------------------------------------------------------
c.Spawner.default_url = "/lab"
c.Spawner.start_timeout = 120  # seconds: JupyterLab imports a lot on a busy machine
c.Spawner.http_timeout = 120


def pre_spawn_hook(spawner):
    """Instructors: the course root, formgrader, the grader. Students: their home, the Assignments panel."""
    instructor = spawner.user.name in INSTRUCTORS
    env = {"NBGRADER_EXCHANGE": str(EXCHANGE)}
    # Enforced by SystemdSpawner (cgroups); the trial's spawner ignores them.
    spawner.mem_limit, spawner.cpu_limit = LIMITS["instructor" if instructor else "student"]
    if not instructor and not TRIAL:
        spawner.unit_extra_properties = {"InaccessiblePaths": str(COURSE_ROOT)}
    if instructor:
        spawner.cmd = [str(Path(sys.prefix) / "bin" / "jupyterhub-singleuser")]
        spawner.notebook_dir = str(COURSE_ROOT)
        # The venv first on PATH: nbgrader runs alembic from it, the instructor runs the grader.
        env.update(PATH=_path(Path(sys.prefix)), NEEDLE_COURSE_ROOT=str(COURSE_ROOT),
                   JUPYTER_CONFIG_PATH=str(INSTRUCTOR_CONFIG))
    else:
        spawner.cmd = [str(STUDENT_ENV / "bin" / "jupyterhub-singleuser")]
        spawner.notebook_dir = "~"
        # nbgrader's student side (exchange, course id, student id = hub user), no formgrader.
        env.update(PATH=_path(STUDENT_ENV), JUPYTER_CONFIG_PATH=str(STUDENT_CONFIG))
    spawner.environment = {**spawner.environment, **env}


c.Spawner.pre_spawn_hook = pre_spawn_hook
