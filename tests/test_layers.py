"""The grader's modules import one way: the shared modules at the top of autograder/ (results and
their store, submissions, the course, console) below the packages; grading (grade/) never imports
an export, and the exports (export/) read results, never grading; no two packages import each
other, and no import circle between modules (read from the source, imports inside functions
included, so a deferred import does not hide one).
"""
from __future__ import annotations

import ast
from collections import defaultdict
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "autograder"
PACKAGES = ("check", "export", "grade", "sandbox", "suites")
# what each package may import of the others (anything not listed is forbidden)
ALLOWED = {
    "sandbox": set(),
    "grade": {"sandbox"},
    "export": set(),
    "check": {"sandbox", "grade"},
}


def modules() -> dict[str, Path]:
    found = {}
    for path in PACKAGE.rglob("*.py"):
        parts = path.relative_to(PACKAGE).with_suffix("").parts
        if parts[0] == "suites":  # the hidden suites and their fixtures: course content, not the grader
            continue
        name = ".".join(("autograder",) + (parts[:-1] if parts[-1] == "__init__" else parts))
        found[name] = path
    return found


def imports_of(name: str, path: Path, known: set[str]) -> set[str]:
    """The autograder modules ``name`` imports (``from . import x`` resolved to the module x when it is one)."""
    package = name if path.name == "__init__.py" else name.rsplit(".", 1)[0]
    out = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")
                anchor = anchor[: len(anchor) - (node.level - 1)]
                base = ".".join(anchor + ([base] if base else []))
            for alias in node.names:
                candidate = f"{base}.{alias.name}"
                out.add(candidate if candidate in known else base)
        elif isinstance(node, ast.Import):
            out.update(alias.name for alias in node.names)
    return {m for m in out if m in known and m != name}


def graph() -> dict[str, set[str]]:
    found = modules()
    return {name: imports_of(name, path, set(found)) for name, path in found.items()}


def package_of(module: str) -> str | None:
    parts = module.split(".")
    return parts[1] if len(parts) > 2 and parts[1] in PACKAGES else None


def test_packages_import_one_way():
    crossings = defaultdict(set)
    for module, imported in graph().items():
        for other in imported:
            source, target = package_of(module), package_of(other)
            if source and target and source != target and target not in ALLOWED[source]:
                crossings[(source, target)].add(f"{module} -> {other}")
    assert not crossings, dict(crossings)


def test_the_shared_modules_import_no_package():
    """results, store, submissions, console and the rest at the top of autograder/ are below every
    package (cli, demo and gradescope, the commands, are above them all)."""
    commands = {"autograder.cli", "autograder.demo", "autograder.gradescope", "autograder.__main__"}
    upward = {f"{module} -> {other}" for module, imported in graph().items()
              if package_of(module) is None and module not in commands and module != "autograder"
              for other in imported if package_of(other) in ("grade", "export", "check")}
    assert not upward, sorted(upward)


def test_no_import_circle():
    edges = graph()
    seen, stack, circles = set(), [], []

    def visit(module: str) -> None:
        if module in stack:
            circles.append(stack[stack.index(module):] + [module])
            return
        if module in seen:
            return
        seen.add(module)
        stack.append(module)
        for other in sorted(edges[module]):
            visit(other)
        stack.pop()

    for module in sorted(edges):
        visit(module)
    assert not circles, circles


def test_the_check_sees_a_planted_crossing(tmp_path):
    """The control: an export importing grading, inside a function, is caught."""
    source = (PACKAGE / "export" / "report.py").read_text(encoding="utf-8") + "\ndef f():\n    from ..grade import batch\n"
    found = modules()
    (tmp_path / "report.py").write_text(source, encoding="utf-8")
    imported = imports_of("autograder.export.report", tmp_path / "report.py", set(found))
    assert "autograder.grade.batch" in imported and package_of("autograder.grade.batch") not in ALLOWED["export"]


def test_the_layout_table_names_every_module_with_its_job():
    """docs/instructors.md's repository layout names each module of the grader, of coursekit and of
    needle's top level (a module added without a line there is one a maintainer cannot place)."""
    root = PACKAGE.parent
    table = (root / "docs" / "instructors.md").read_text(encoding="utf-8").split("## Repository layout", 1)[1]
    unnamed = []
    for folder in (PACKAGE, root / "coursekit", root / "needle"):
        for path in sorted(folder.rglob("*.py")):
            relative = path.relative_to(folder)
            if relative.parts[0] in ("suites", "__pycache__") or path.name in ("__init__.py", "__main__.py"):
                continue
            if len(relative.parts) > 1 and folder.name == "needle":  # needle's ops/ and data/ are named as folders
                continue
            if f"`{path.name}`" not in table and f"`{path.stem}`" not in table:
                unnamed.append(str(path.relative_to(root)))
    assert not unnamed, f"docs/instructors.md's layout table does not name: {unnamed}"
