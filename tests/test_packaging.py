"""pyproject.toml and environment.yml must list the same dependencies and bounds."""
import re
import tomllib

from conftest import ROOT



def pyproject_requirements() -> dict[str, str]:
    data = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    reqs = list(data["dependencies"])
    extras = data["optional-dependencies"]
    for extra in ("course", "grader", "dev"):
        reqs += [r for r in extras[extra] if not r.startswith("needle-course")]
    reqs.append("python" + data["requires-python"])
    return dict(_split(r) for r in reqs)


def conda_requirements() -> dict[str, str]:
    reqs, section = {}, None
    for line in (ROOT / "environment.yml").read_text().splitlines():
        if re.match(r"^[a-z]", line):
            section = line.split(":")[0]
        m = re.match(r"^  - ([A-Za-z0-9_.\-]+)\s*(.*)$", line)  # top-level list entries
        if section == "dependencies" and m and m.group(1) != "pip":
            reqs[m.group(1).lower()] = m.group(2).replace(" ", "")
    return reqs


def _split(req: str) -> tuple[str, str]:
    m = re.match(r"^([A-Za-z0-9_.\-]+)(.*)$", req)
    return m.group(1).lower(), m.group(2).replace(" ", "")


def test_environment_yml_mirrors_pyproject():
    assert conda_requirements() == pyproject_requirements()


def test_every_requirement_has_a_lower_bound():
    for name, spec in pyproject_requirements().items():
        assert spec.startswith(">="), f"{name} has no lower bound: {spec!r}"


def test_torch_is_optional():
    data = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert not any("torch" in r for r in data["dependencies"] + data["optional-dependencies"]["dev"])
    assert any(r.startswith("torch") for r in data["optional-dependencies"]["torch"])
