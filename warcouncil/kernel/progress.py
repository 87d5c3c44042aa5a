"""Progress of a long query, for a person watching: one helper for every
verb that takes long (``orders --count``, ``turns``, ``plan``, ``batch``).

A query reports its work with ``with progress(description, total) as step:
step(done, total, text)``; whether that draws anything is decided here, in
one place: rich's progress bar (with the time left when a total is known)
on standard error, only when the command line asked for it (``shown``: it
does, unless the answer is ``--json``) and standard error is a terminal;
never into a pipe, never on standard output. A library caller sees
nothing unless it asks (``show=True``). Reporting costs a function call
when nothing is drawn; the bar itself redraws at most ten times a second.
"""

from __future__ import annotations

import os
import time
from contextlib import contextmanager
from contextvars import ContextVar

#: the command line's wish: bars for a person (False: none, e.g. --json)
_SHOWN: ContextVar[bool] = ContextVar("warcouncil_progress_shown", default=False)


@contextmanager
def shown(on: bool = True):
    """Within it, a long query draws its bar when standard error is a
    terminal (the command line, for an answer that is not ``--json``)."""
    token = _SHOWN.set(on)
    try:
        yield
    finally:
        _SHOWN.reset(token)


def stderr_is_terminal() -> bool:
    try:
        return os.isatty(2)
    except OSError:  # pragma: no cover
        return False


def stdout_is_terminal() -> bool:
    try:
        return os.isatty(1)
    except OSError:  # pragma: no cover
        return False


def wanted(streams: bool = False) -> bool:
    """Would a bar be drawn now? ``streams``: the answer is printed as it
    is made (a listing), which shows the progress itself on a terminal: a
    bar only when standard output goes elsewhere (a file)."""
    return _SHOWN.get() and stderr_is_terminal() and not (streams and stdout_is_terminal())


def _nothing(done: float, total: float | None = None, text: str | None = None) -> None:
    pass


#: seconds a step runs before its bar is drawn: a quick answer draws none
#: (and does not import rich for it)
DELAY = 0.25


@contextmanager
def progress(description: str, total: float | None = None, *, show: bool | None = None, streams: bool = False):
    """Report the work of a long step: yields ``step(done, total=None,
    text=None)`` (``done`` out of ``total``, the total as known so far;
    ``text`` replaces the description). ``show``: draw the bar at once
    (True), or never (False); None: as ``wanted(streams)`` says, once the
    step has run ``DELAY`` seconds."""
    if show is None:
        show = wanted(streams)
        delay = DELAY
    else:
        delay = 0.0
    if not show:
        yield _nothing
        return
    bar = _Bar(description, total, delay)
    try:
        yield bar.update
    finally:
        bar.close()


class _Bar:
    """rich's progress bar on standard error: what is done, the time left
    (when a total is known), what the query says it is doing. Transient:
    gone when the step ends. Standard output is left alone (no redirection:
    the answer never goes to standard error)."""

    def __init__(self, description: str, total: float | None, delay: float):
        self.description, self.total = description, total
        self.done = 0.0
        self.progress = None
        self.start = time.monotonic() + delay
        if delay <= 0:
            self._draw()

    def _draw(self) -> None:
        from rich.console import Console
        from rich.progress import BarColumn, Progress, TaskProgressColumn, TextColumn, TimeRemainingColumn

        console = Console(stderr=True, force_terminal=True if not stderr_is_terminal() else None)
        self.progress = Progress(TextColumn("{task.description}"), BarColumn(), TaskProgressColumn(),
                                 TimeRemainingColumn(), console=console, transient=True,
                                 redirect_stdout=False, redirect_stderr=False)
        self.task = self.progress.add_task(self.description, total=self.total, completed=self.done)
        self.progress.start()

    def update(self, done: float, total: float | None = None, text: str | None = None) -> None:
        self.done = done
        if total is not None:
            self.total = total or 1
        if text is not None:
            self.description = text
        if self.progress is None:
            if time.monotonic() < self.start:
                return
            self._draw()
        self.progress.update(self.task, completed=done, total=self.total, description=self.description)

    def close(self) -> None:
        if self.progress is not None:
            self.progress.stop()
