"""One error type for every kind of bad input, carrying the place it was found."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Location:
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
        head = f"{self.location}: {self.message}" if self.location else self.message
        lines = [head]
        if self.source_line is not None:
            lines.append("    " + self.source_line.rstrip("\n"))
            col = self.location.column if self.location and self.location.column else None
            if col:
                # keep tabs so the caret lines up under tabbed text
                pad = "".join(c if c == "\t" else " " for c in self.source_line[: col - 1])
                lines.append("    " + pad + "^")
        if self.hint:
            lines.append(f"hint: {self.hint}")
        return "\n".join(lines)


def closest(name: str, known, n: int = 3) -> list[str]:
    """The closest known names to ``name`` (for 'did you mean' hints)."""
    import difflib

    return difflib.get_close_matches(name, list(known), n=n, cutoff=0.5)
