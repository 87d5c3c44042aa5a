"""Shared fixtures: write small scenarios, house rules and turns to disk and load them.

Scenarios here use two sides:

* ``red``  on the **south** edge (its left = map West, its right = map East);
* ``blue`` on the **north** edge (its left = map East, its right = map West).

A compact piece is a tuple ``(id, side, type, [col, row])`` for a unit (an
optional 5th item gives its current ``blocks``) and ``(id, side, [col, row])``
for a leader.
"""

from __future__ import annotations

import atexit
import itertools
import os
import shutil
import tempfile
from pathlib import Path

import pytest
import yaml

from warcouncil.kernel.engine import Engine
from warcouncil.kernel.turn import load_turn

# Parsed rule files are cached (warcouncil/dsl/packcache.py): in a folder of
# this test session, not the user's cache (subprocesses inherit it).
if "WARCOUNCIL_CACHE_DIR" not in os.environ:
    os.environ["WARCOUNCIL_CACHE_DIR"] = _cache = tempfile.mkdtemp(prefix="warcouncil-test-cache-")
    atexit.register(shutil.rmtree, _cache, True)



def playouts(n: int) -> int:
    """How many seeded random playouts a game test runs where it runs ``n``
    by default: ``n`` times ``WARCOUNCIL_PLAYOUTS`` (a whole number, 1
    unset; e.g. 10 for a long run before a release)."""
    scale = os.environ.get("WARCOUNCIL_PLAYOUTS", "1")
    if not scale.isdigit() or int(scale) < 1:
        raise ValueError(f"WARCOUNCIL_PLAYOUTS is a whole number of at least 1, not {scale!r}")
    return n * int(scale)


def verb_script(show: str) -> str:
    """A ``python -c`` script running the command line on its arguments,
    then printing ``show`` (an expression over ``sys``) on stderr: what a
    verb's process imported, say."""
    return ("import sys\n"
            "from warcouncil.cli import main\n"
            "try:\n"
            "    main(sys.argv[1:], prog_name='warcouncil')\n"
            "except SystemExit:\n"
            "    pass\n"
            f"print({show}, file=sys.stderr)\n")


def scratch_dir(prefix: str) -> Path:
    """A folder for one test module's generated files, removed when the test
    process ends (module-level, so hypothesis tests can share it)."""
    folder = tempfile.mkdtemp(prefix=prefix)
    atexit.register(shutil.rmtree, folder, True)
    return Path(folder)


AKRAGAS = Path(__file__).resolve().parent.parent / "warcouncil" / "examples" / "cca" / "akragas.yaml"


def scenario_dict(units=(), leaders=(), *, to_move="red", red_command=3, blue_command=3,
                  system="cca") -> dict:
    """A scenario mapping (the interface.md format) from compact pieces, on
    the named board of the system's pack (cca, ccm)."""
    data = {
        "system": system,
        "board": system,
        "sides": {
            "red": {"edge": "south", "command": red_command},
            "blue": {"edge": "north", "command": blue_command},
        },
        "to_move": to_move,
        "units": [],
        "leaders": [],
    }
    for u in units:
        entry = {"id": u[0], "side": u[1], "type": u[2], "at": list(u[3])}
        if len(u) > 4 and u[4] is not None:
            entry["blocks"] = u[4]
        data["units"].append(entry)
    for ldr in leaders:
        data["leaders"].append({"id": ldr[0], "side": ldr[1], "at": list(ldr[2])})
    return data


class _Writer:
    """Writes YAML / rule files into one directory under unique names."""

    def __init__(self, directory: Path):
        self.dir = Path(directory)
        self.n = itertools.count()

    def path(self, stem: str, suffix: str) -> Path:
        return self.dir / f"{stem}{next(self.n)}{suffix}"

    def engine(self, data: dict, rules=()) -> Engine:
        p = self.path("scenario", ".yaml")
        p.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
        return Engine.load(p, rules=[str(r) for r in rules])

    def build(self, units=(), leaders=(), *, rules=(), **kw) -> Engine:
        return self.engine(scenario_dict(units, leaders, **kw), rules=rules)

    def house(self, text: str) -> Path:
        p = self.path("house", ".wc")
        p.write_text(text, encoding="utf-8")
        return p

    def turn(self, data: dict, eng: Engine):
        p = self.path("turn", ".yaml")
        p.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
        return load_turn(str(p), eng.scenario.board)


@pytest.fixture
def files(tmp_path) -> _Writer:
    return _Writer(tmp_path)


@pytest.fixture
def make_engine(files):
    """``make_engine(scenario_dict, rules=[...])``: write the YAML to tmp_path, return Engine.load(path)."""
    return files.engine


@pytest.fixture
def build(files):
    """``build(units, leaders, rules=[...], to_move=..., red_command=..., blue_command=...)`` -> Engine."""
    return files.build


@pytest.fixture
def house(files):
    """``house(text)``: a house-rule file in tmp_path, to pass as ``rules=[path]``."""
    return files.house


@pytest.fixture
def turn(files):
    """``turn(mapping, eng)``: a turn YAML in tmp_path, loaded with load_turn."""
    return files.turn


@pytest.fixture(scope="session")
def session_files(tmp_path_factory) -> _Writer:
    """A session-wide writer (usable from hypothesis tests)."""
    return _Writer(tmp_path_factory.mktemp("wc"))


@pytest.fixture(scope="session")
def akragas() -> Engine:
    return Engine.load(AKRAGAS)


@pytest.fixture(scope="module")
def pack():
    """The shipped CCA pack, parsed once for the module (engines share it)."""
    from warcouncil.dsl.pack import load_pack

    return load_pack("cca")


@pytest.fixture
def board(files, pack):
    """``board(units, leaders, terrain={(c, r): type})`` -> Engine on the shipped pack."""
    from warcouncil.kernel.scenario import load_scenario

    def make(units=(), leaders=(), terrain=None):
        data = scenario_dict(units, leaders)
        if terrain:
            data["terrain"] = [{"at": list(c), "type": t} for c, t in terrain.items()]
        p = files.path("scenario", ".yaml")
        p.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
        return Engine(load_scenario(str(p)), pack)

    return make


# ----------------------------------------------------------------- the standard hex board, written out
# (independent of warcouncil's board code, so tests can check it)


def on_board(c) -> bool:
    """On the standard C&C board: rows 0..8, 13 hexes on even rows, 12 on odd."""
    col, row = c
    return 0 <= row <= 8 and 0 <= col <= (12 if row % 2 == 0 else 11)


def dist(a, b) -> int:
    """Reference §1.1: axial q = col - floor(row/2); cube distance."""
    dq = (a[0] - a[1] // 2) - (b[0] - b[1] // 2)
    dr = a[1] - b[1]
    return max(abs(dq), abs(dr), abs(dq + dr))


def run_cli(*args) -> tuple[int, str, str]:
    """The command line in process: (exit code, stdout, stderr); an
    exception other than the exit is raised, so a traceback fails the test."""
    from click.testing import CliRunner

    from warcouncil.cli import main

    result = CliRunner().invoke(main, [str(a) for a in args])
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result.exit_code, result.stdout, result.stderr
