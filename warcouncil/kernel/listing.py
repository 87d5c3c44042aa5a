"""What every listing answer shares: ``--limit N`` and its footer.

``--limit N`` bounds the work, not only the printing: N + 1 items are made
(the one past N says whether there are more) and the total is given only
when it comes cheap (a closed-form count) or is asked for with --count;
otherwise the footer says "more than N" and the JSON's ``count`` is null
with ``count_at_least`` (see README, "Using it").
"""

from __future__ import annotations


def cut(got: list, limit: int | None, cheap) -> tuple[list, int | None, bool]:
    """(the items to show, their total or None when unknown, whether there
    are more than shown) from at most ``limit + 1`` items; ``cheap()`` gives
    the total when it needs no enumeration (or None)."""
    if limit is None or len(got) <= limit:
        return got, len(got), False
    return got[:limit], (cheap() if cheap is not None else None), True


def count_json(total: int | None, more: bool, limit: int | None) -> dict:
    """The JSON keys that say how many there are: ``count``, and with a
    limit ``limited`` (and ``count_at_least`` when the total is unknown)."""
    obj: dict = {"count": total}
    if limit is not None:
        obj["limited"] = more
        if total is None:
            obj["count_at_least"] = limit + 1
    return obj


def footer(shown: int, total: int | None, more: bool, one: str, many: str) -> str:
    """A listing's last line, in the console's markup."""
    if total is None:
        return (f"more than [bold]{shown}[/] {many} (showing the first {shown}; "
                "--count gives the number)")
    more_text = f" (showing {shown})" if more else ""
    return f"[bold]{total}[/] {one if total == 1 else many}{more_text}"
