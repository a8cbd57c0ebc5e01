import signal
import sys


def _stopped_while_starting(signum, frame):
    # Ctrl-C or SIGTERM before grading began (imports take a second): nothing was written yet, so
    # a line, not a traceback. `grade` installs its own handler once it has something to keep.
    print(f"\nautograder: stopped by {signal.Signals(signum).name} while starting; nothing was graded or changed.",
          file=sys.stderr)
    raise SystemExit(128 + signum)


for _signum in (signal.SIGINT, signal.SIGTERM):
    signal.signal(_signum, _stopped_while_starting)

from .cli import main  # noqa: E402 - after the handlers: the imports are the slow part

sys.exit(main())
