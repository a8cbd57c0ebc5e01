"""Run a command as the terminal's foreground job, so that Ctrl-C reaches it alone.

`make lab` runs JupyterLab through this. Ctrl-C in a terminal signals every process of the
foreground job: make too, which then reports the recipe as interrupted ("make: *** [lab]
Interrupt") although JupyterLab shut down cleanly. Here the command gets a process group of its
own, made the terminal's foreground group while it runs (as a shell's job control does); the
terminal is handed back when it ends. Without a terminal the command simply runs.

Exit status: the command's, except that a stop by Ctrl-C (SIGINT, or 130 as shells report it) is
a normal end, 0.

    python foreground.py COMMAND [ARGS...]
"""
from __future__ import annotations

import os
import signal
import subprocess
import sys


def main(argv: list[str]) -> int:
    if not argv:
        print("usage: python foreground.py COMMAND [ARGS...]", file=sys.stderr)
        return 2
    try:
        tty = os.open("/dev/tty", os.O_RDWR)
        before = os.tcgetpgrp(tty)
    except OSError:  # no controlling terminal (CI, a service): nothing to hand over
        tty = None
    process = subprocess.Popen(argv, process_group=0 if tty is not None else None)
    # A background group (ours, once the command has the terminal) may not set the foreground
    # group back without ignoring SIGTTOU (ignored here only: the command keeps the default).
    signal.signal(signal.SIGTTOU, signal.SIG_IGN)
    try:
        if tty is not None:
            os.tcsetpgrp(tty, process.pid)
        code = process.wait()
    except KeyboardInterrupt:  # Ctrl-C before the hand-over: the command got it too
        code = process.wait()
    finally:
        if tty is not None:
            os.tcsetpgrp(tty, before)
            os.close(tty)
    return 0 if code in (-signal.SIGINT, 128 + signal.SIGINT) else code


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
