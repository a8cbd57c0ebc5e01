"""Submission times: nbgrader's timestamp.txt read (an untrusted file, with a cap) and written, a
notebook's time without one, and how long after a due date, in words and in started days.

Used by grading (lateness, penalties), by the exports (nbgrader's gradebook, feedback delivery)
and by the reports (the lateness a student reads is the lateness charged).
"""
from __future__ import annotations

import datetime as dt
import math
from pathlib import Path

DAY = 86400.0
MAX_TIMESTAMP_BYTES = 200


def utc(moment: dt.datetime) -> dt.datetime:
    """``moment`` as an aware UTC time (a naive one is taken to be UTC, as nbgrader stores them)."""
    return moment.replace(tzinfo=dt.timezone.utc) if moment.tzinfo is None else moment.astimezone(dt.timezone.utc)


def parse_timestamp(text: str) -> dt.datetime | None:
    """nbgrader's submission timestamp (``%Y-%m-%d %H:%M:%S.%f %Z``) in UTC, or None when it cannot
    be read. Another time zone than UTC goes through nbgrader's own parser (slow to import)."""
    text = text.strip()
    if text.endswith(" UTC"):
        try:
            return utc(dt.datetime.fromisoformat(text[:-4]))
        except (ValueError, OverflowError):  # OverflowError: year 1 at +14:00 has no UTC time
            pass
    try:
        from nbgrader.utils import parse_utc

        return utc(parse_utc(text))
    except Exception:  # noqa: BLE001 - any unreadable timestamp is "unknown"
        return None


def nbgrader_timestamp(moment: dt.datetime) -> str:
    """The form nbgrader writes in timestamp.txt."""
    return utc(moment).strftime("%Y-%m-%d %H:%M:%S.%f UTC")


def submission_time(notebook: Path) -> dt.datetime | None:
    """When ``notebook`` was submitted: its folder's timestamp.txt (nbgrader), else the file's own
    modification time (not following a link). None when neither can be read."""
    from .notebook import UnreadableNotebook, read_bytes_safely

    stamp = notebook.parent / "timestamp.txt"
    try:
        moment = parse_timestamp(read_bytes_safely(stamp, MAX_TIMESTAMP_BYTES).decode("utf-8", errors="replace"))
    except UnreadableNotebook:  # no timestamp.txt (or not a plain small file): the file's time
        moment = None
    if moment is None:
        try:
            moment = dt.datetime.fromtimestamp(notebook.lstat().st_mtime, dt.timezone.utc)
        except (OSError, OverflowError, ValueError):  # a modification time past year 9999 (tmpfs allows it)
            return None
    return moment


def show(moment: dt.datetime) -> str:
    return utc(moment).strftime("%Y-%m-%d %H:%M UTC")


def duration(seconds: float) -> str:
    """``3 days 55 min``, ``1 day 3 h``, ``5 h 20 min``, ``12 min`` (rounded up to the minute; every
    part said: "3 days" alone hid the 55 minutes that made a fourth started day)."""
    minutes = math.ceil(seconds / 60)
    days, minutes = divmod(minutes, 24 * 60)
    hours, minutes = divmod(minutes, 60)
    parts = [f"{days} day{'s' if days > 1 else ''}" if days else "", f"{hours} h" if hours else "",
             f"{minutes} min" if minutes else ""]
    return " ".join(p for p in parts if p) or "0 min"


def started_days(seconds: float) -> int:
    """The days a late policy charges: every started day counts."""
    return math.ceil(seconds / DAY) if seconds > 0 else 0
