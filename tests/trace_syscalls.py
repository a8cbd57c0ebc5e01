"""The system calls graded workers make once confined: runs pytest under strace, following every
process, and counts each call a worker made after installing its seccomp filter. Calls outside
confine.ALLOWED (or refused as not implemented) are listed first: in a run of honest submissions
none should be, and a new one is a call to consider for the allowlist (docs/security.md).

    apt-get install strace
    .venv/bin/python tests/trace_syscalls.py tests/test_grader.py tests/test_threats.py

Every argument is passed to pytest. Slow: each system call stops at strace (about 11 minutes for
the grading tests of make test); the trace is kept in a temporary folder until the report is out.
"""
from __future__ import annotations

import collections
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from autograder.sandbox import confine  # noqa: E402

CALL = re.compile(r"^(?:<\.\.\. )?([a-z_0-9]+)[( ]")
NOT_IMPLEMENTED = re.compile(r"= -1 ENOSYS")


def calls_after_the_filter(trace: Path) -> tuple[collections.Counter, collections.Counter, dict, int]:
    """(calls, calls refused as not implemented, an example line of each, workers) over strace's
    per-process files in ``trace``."""
    made, refused, example, workers = collections.Counter(), collections.Counter(), {}, 0
    for path in trace.iterdir():
        lines = path.read_text(errors="replace").splitlines()
        start = next((i for i, line in enumerate(lines) if "PR_SET_SECCOMP" in line), None)
        if start is None:  # not a worker, or one that never confined itself
            continue
        workers += 1
        for line in lines[start + 1:]:
            found = CALL.match(line)
            if not found or line.startswith("<..."):
                continue
            name = found.group(1)
            made[name] += 1
            example.setdefault(name, line[:120])
            if NOT_IMPLEMENTED.search(line):
                refused[name] += 1
    return made, refused, example, workers


def main(pytest_args: list[str]) -> int:
    if shutil.which("strace") is None:
        raise SystemExit("trace_syscalls needs strace: apt-get install strace")
    with tempfile.TemporaryDirectory(prefix="syscalls-") as folder:
        trace = Path(folder)
        cmd = ["strace", "-f", "-ff", "-qq", "-o", str(trace / "t"), sys.executable, "-m", "pytest",
               "-p", "no:cacheprovider", "-q", *pytest_args]
        done = subprocess.run(cmd, cwd=Path(__file__).resolve().parents[1], env=dict(os.environ))
        made, refused, example, workers = calls_after_the_filter(trace)
    outside = {name for name in made if name not in confine.SYS} | set(refused)  # SYS: the calls let through (some by argument), those answered without being made, and capset, refused (then in refused)
    print(f"{workers} workers; calls after the filter was installed:")
    for name in sorted(made, key=lambda n: (n not in outside, -made[n])):
        mark = "OUTSIDE " if name in outside else "        "
        print(f"{mark}{made[name]:9d} {name:20s} {example[name]}")
    print(f"pytest exited {done.returncode}")
    return 1 if done.returncode else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
