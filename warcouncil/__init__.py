"""warcouncil: a rules engine for command-driven tabletop wargames."""

__version__ = "0.1.0"

#: the game interface (``kernel/game.py``), imported when first asked for:
#: ``warcouncil.load_game(...)``, ``warcouncil.CHANCE``, ...
_GAME_NAMES = ("load_game", "CHANCE", "TERMINAL", "IllegalAction", "Game", "State")


def __getattr__(name: str):
    if name in _GAME_NAMES:
        from .kernel import game

        return getattr(game, name)
    raise AttributeError(f"module 'warcouncil' has no attribute {name!r}")

# ------------------------------------------------------------------ the collector while the command line starts
#
# A process answering one query (`warcouncil moves ...`) makes some 40 000
# objects before its first search (the modules, the pack's syntax trees,
# its plan) and keeps nearly all of them to the end; the collector walked
# them about sixty times, ~8 ms of a 0.1 s answer (issue 15). A process
# started as the program (the `warcouncil` command and `python -m
# warcouncil`: __main__.py; `python -m warcouncil.cli`) therefore collects
# only every START_GC_YOUNG new objects until its verb's engine is loaded
# (``_started``, called by cli.py); then what the start made is frozen out
# of the collector's walks (``gc.freeze``: with the few hundred objects of
# cycles the start left, ~0.1 MB) and the collector is set as it was. Here,
# not in cli.py, because the launcher must call ``_starting`` before cli.py's
# imports, a third of the start. Library callers (and tests, through click's
# runner) are left alone: nothing here runs unless called.

START_GC_YOUNG = 100_000
_START: list = []  # the collector's threshold from before the start, while starting


def _starting() -> None:
    """This process is the command line: the collector held back until ``_started``."""
    import gc

    if not _START:
        threshold = gc.get_threshold()
        _START.append(threshold)
        gc.set_threshold(max(START_GC_YOUNG, threshold[0]), *threshold[1:])


def _started() -> None:
    """The start is over (the verb's engine loaded, or a verb that loads
    none about to run): what it made frozen, the collector as it was. Does
    nothing in a process that did not call ``_starting``."""
    if _START:
        import gc

        gc.freeze()
        gc.set_threshold(*_START.pop())
