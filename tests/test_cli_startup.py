"""The start of a command-line process (issue 15): the collector held back
until the verb's engine is loaded, then the start frozen out of its walks
and the collector set as it was (warcouncil/__init__.py). The answers are
the same whichever way the command line is started."""

from __future__ import annotations

import gc
import inspect
import json
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

import warcouncil
from conftest import verb_script
from warcouncil import cli

MOVES = ["moves", "akragas", "--card", "Order Three Units Center", "--order", "s1", "--json"]


@pytest.fixture
def collector():
    """The collector as it was, whatever a test does to it (and nothing left frozen)."""
    before = gc.get_threshold()
    assert warcouncil._START == []
    yield before
    warcouncil._START.clear()
    gc.set_threshold(*before)
    gc.unfreeze()


def _invoke(args):
    return CliRunner().invoke(cli.main, args)


def test_a_library_caller_is_left_alone(collector) -> None:
    frozen = gc.get_freeze_count()
    r = _invoke(MOVES)
    assert r.exit_code == 1, r.output  # s1 is not in the center: "no"
    assert gc.get_threshold() == collector and gc.get_freeze_count() == frozen
    warcouncil._started()  # without _starting: nothing
    assert gc.get_threshold() == collector and gc.get_freeze_count() == frozen


def test_the_start_holds_the_collector_back_until_the_engine_is_loaded(collector, monkeypatch) -> None:
    from warcouncil.kernel.engine import Engine

    seen = []
    load = Engine.load.__func__

    def spy(cls, *args, **kw):
        seen.append(("load", gc.get_threshold()))
        return load(cls, *args, **kw)

    monkeypatch.setattr(Engine, "load", classmethod(spy))
    warcouncil._starting()
    assert gc.get_threshold()[0] == max(warcouncil.START_GC_YOUNG, collector[0])
    assert gc.get_threshold()[1:] == collector[1:]
    r = _invoke(MOVES)
    assert r.exit_code == 1, r.output
    assert seen == [("load", (max(warcouncil.START_GC_YOUNG, collector[0]), *collector[1:]))]
    # after the load: the collector as it was, the start frozen out of its walks
    assert gc.get_threshold() == collector
    assert gc.get_freeze_count() > 0
    assert warcouncil._START == []
    # the same answer as without any of this
    gc.unfreeze()
    assert _invoke(MOVES).output == r.output


def test_a_verb_without_an_engine_ends_the_start_as_it_is_chosen(collector, monkeypatch) -> None:
    import warcouncil.dsl.lint as lint_mod

    seen = []
    real = lint_mod.lint

    def spy(*args, **kw):
        seen.append(gc.get_threshold())
        return real(*args, **kw)

    monkeypatch.setattr(lint_mod, "lint", spy)
    warcouncil._starting()
    r = _invoke(["lint", "cca"])
    assert r.exit_code == 0, r.output
    assert seen == [collector]
    assert warcouncil._START == []


def _calls_engine_first(callback) -> bool:
    src = inspect.getsource(inspect.unwrap(callback))
    return "_engine(" in src or "_ground_one_roll(" in src


def test_the_engine_verbs_are_those_that_load_an_engine() -> None:
    """A verb in ENGINE_VERBS keeps the collector held back until its
    ``_engine`` call: one that made no such call would run held back to
    the end. Every verb that loads its engine through ``_engine`` is listed
    (or it would start with the collector as usual: slower, not wrong)."""
    for name, cmd in cli.main.commands.items():
        assert (name in cli.ENGINE_VERBS) == _calls_engine_first(cmd.callback), name
    assert cli.ENGINE_VERBS <= set(cli.main.commands)
    assert "moves" in cli.ENGINE_VERBS and "batch" not in cli.ENGINE_VERBS and "lint" not in cli.ENGINE_VERBS


# ------------------------------------------------------------------ whole processes

_REPORT = (
    "import atexit, gc, runpy, sys\n"
    "atexit.register(lambda: print('GC', gc.get_threshold(), gc.get_freeze_count() > 0, file=sys.stderr))\n"
    "sys.argv = ['warcouncil', *sys.argv[1:]]\n"
    "runpy.run_module({module!r}, run_name='__main__', alter_sys=True)\n"
)


@pytest.mark.parametrize("module", ["warcouncil.cli", "warcouncil"])
def test_a_process_started_as_the_program(module, tmp_path) -> None:
    """``python -m warcouncil.cli`` and ``python -m warcouncil``: the same
    bytes as in-process, and at the end the collector as Python sets it,
    with the start frozen."""
    done = subprocess.run([sys.executable, "-c", _REPORT.format(module=module), *MOVES],
                          capture_output=True, text=True, cwd=tmp_path, timeout=120)
    assert done.returncode == 1, done.stderr
    assert done.stdout == _invoke(MOVES).output
    assert f"GC {gc.get_threshold()} True" in done.stderr, done.stderr
    doc = json.loads(done.stdout)
    assert doc["legal"] is False and doc["moves"]["s1"]


def test_the_console_script(tmp_path) -> None:
    exe = Path(sys.executable).parent / "warcouncil"
    if not exe.exists():  # pragma: no cover
        pytest.skip("the warcouncil console script is not installed next to this Python")
    done = subprocess.run([str(exe), *MOVES], capture_output=True, text=True, cwd=tmp_path, timeout=120)
    assert done.returncode == 1, done.stderr
    assert done.stdout == _invoke(MOVES).output
    bad = subprocess.run([str(exe), "moves", "akragas", "--card", "No Such Card", "--order", "s1"],
                         capture_output=True, text=True, cwd=tmp_path, timeout=120)
    assert bad.returncode == 2 and bad.stdout == "" and "unknown card" in bad.stderr


_IMPORTED = verb_script("'warcouncil.batch' in sys.modules")


def test_the_batch_runner_is_imported_only_when_the_batch_verb_runs(tmp_path) -> None:
    """The batch runner (workers, chunks, the packs they share) is a module
    of its own, warcouncil/batch.py, beside the verbs of cli.py: a process
    answering one verb never imports it; `batch` does, when it runs."""
    from warcouncil import batch

    assert callable(batch.run) and not hasattr(cli, "_batch_run") and not hasattr(cli, "_BatchForks")
    one = subprocess.run([sys.executable, "-c", _IMPORTED, "cards", "akragas", "--json"],
                         capture_output=True, text=True, cwd=tmp_path, timeout=120)
    assert one.stderr == "False\n" and json.loads(one.stdout)["cards"]
    jobs = tmp_path / "jobs.jsonl"
    jobs.write_text('{"scenario": "akragas", "verb": "cards"}\n', encoding="utf-8")
    many = subprocess.run([sys.executable, "-c", _IMPORTED, "batch", str(jobs), "--jobs", "1"],
                          capture_output=True, text=True, cwd=tmp_path, timeout=120)
    assert many.stderr == "True\n"
    assert json.loads(many.stdout)["answer"] == json.loads(one.stdout)


_LOADED = verb_script("sorted(m for m in sys.modules if m == 'importlib.metadata' or m.endswith('.game'))")


def test_a_verb_imports_no_game_interface_and_no_metadata_scan_once_cached(tmp_path) -> None:
    """``System.game`` is imported when first read (``kernel.system.Lazy``),
    and the entry points come from the user's cache after the first run:
    a `moves` imports neither the game interface nor importlib.metadata."""
    import os

    env = dict(os.environ, WARCOUNCIL_CACHE_DIR=str(tmp_path / "cache"))
    env.pop("WARCOUNCIL_CACHE", None)
    work = tmp_path / "work"  # (the current folder is on sys.path: the cache is kept outside it)
    work.mkdir()
    args = ["moves", "akragas", "--card", "Order Three Units Center", "--order", "s4", "--json"]
    first = subprocess.run([sys.executable, "-c", _LOADED, *args], capture_output=True, text=True, cwd=work,
                           env=env, timeout=120)
    assert first.stderr == "['importlib.metadata']\n" and json.loads(first.stdout)["legal"] is True
    again = subprocess.run([sys.executable, "-c", _LOADED, *args], capture_output=True, text=True, cwd=work,
                           env=env, timeout=120)
    assert again.stderr == "[]\n" and again.stdout == first.stdout
