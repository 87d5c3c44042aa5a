"""One error type for every kind of bad input, carrying the place it was found."""

from __future__ import annotations

from .records import record


@record
class Location:
    """A place in a file: its path (None: typed input), line and column (1-based)."""

    file: str | None = None
    line: int | None = None  # 1-based
    column: int | None = None  # 1-based

    def __str__(self) -> str:
        parts = [self.file or "<input>"]
        if self.line is not None:
            parts.append(str(self.line))
            if self.column is not None:
                parts.append(str(self.column))
        return ":".join(parts)


# The longest piece of a source line an error message quotes, and the
# longest message: a 5 MB line in a file gives a short error, not a 10 MB one.
EXCERPT_WIDTH = 120
MESSAGE_LIMIT = 2000
ELLIPSIS = "…"


def excerpt(line: str, column: int | None = None, width: int = EXCERPT_WIDTH) -> tuple[str, int | None]:
    """At most ``width`` characters of ``line`` around ``column`` (1-based),
    with an ellipsis where text was cut; and the column within the excerpt."""
    line = line.split("\n", 1)[0]
    if len(line) <= width:
        return line, column
    col = column if column and 0 < column <= len(line) + 1 else 1
    start = max(0, min(col - 1 - width // 2, len(line) - width))
    end = start + width
    text = line[start:end]
    if start > 0:
        text = ELLIPSIS + text[1:]
    if end < len(line):
        text = text[:-1] + ELLIPSIS
    return text, (col - start if column else None)


def bounded(text: str, limit: int = MESSAGE_LIMIT) -> str:
    """``text`` cut to ``limit`` characters, with an ellipsis."""
    return text if len(text) <= limit else text[: limit - 1] + ELLIPSIS


class WarcouncilError(Exception):
    """Bad input from a user: a file, an id, a hex, rule text.

    The CLI prints ``str(error)`` and exits 2; never a traceback.
    ``source_line`` (the offending line) and ``hint`` are optional extras
    shown under the message with a caret.
    """

    def __init__(
        self,
        message: str,
        location: Location | None = None,
        *,
        source_line: str | None = None,
        hint: str | None = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.location = location
        self.source_line = source_line
        self.hint = hint

    def __str__(self) -> str:
        message = bounded(self.message)
        head = f"{self.location}: {message}" if self.location else message
        lines = [head]
        if self.source_line is not None:
            col = self.location.column if self.location and self.location.column else None
            text, col = excerpt(self.source_line.rstrip("\r\n"), col)
            lines.append("    " + text)
            if col:
                # keep tabs so the caret lines up under tabbed text
                pad = "".join(c if c == "\t" else " " for c in text[: col - 1])
                lines.append("    " + pad + "^")
        if self.hint:
            lines.append(f"hint: {bounded(self.hint)}")
        return "\n".join(lines)


def closest(name: str, known, n: int = 3) -> list[str]:
    """The closest known names to ``name`` (for 'did you mean' hints)."""
    import difflib

    return difflib.get_close_matches(name, list(known), n=n, cutoff=0.5)


def error_document(message: str, location: Location | None = None, hint: str | None = None) -> dict:
    """Bad input as ``--json`` gives it, one JSON document:
    ``{"error": {"message", "file", "line", "column", "hint"}}`` (each place
    and the hint null when unknown)."""
    loc = location or Location()
    return {"error": {"message": bounded(message), "file": loc.file, "line": loc.line, "column": loc.column,
                      "hint": bounded(hint) if hint else None}}
