"""Hooks: the defines an engine calls by name, declared in the pack
(``hook NAME(a, b) "what the engine expects"``).

* every define the engines call is a declared hook, and every declared hook
  is called (a walk over the families' Python);
* ``Pack.hook`` refuses a name the pack does not declare (a programming
  error), so the engines call defines through the declared list only;
* a house rule that removes a hook is told so at its `remove` (lint exit 1,
  loading exit 2), naming the hook and what the engine needs it for; a
  `replace define` that changes a hook's parameters likewise.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from warcouncil.cli import main
from warcouncil.dsl import ast as A
from warcouncil.dsl.lint import lint
from warcouncil.dsl.pack import UndeclaredHook, load_pack
from warcouncil.dsl.parser import parse_text
from warcouncil.errors import WarcouncilError

SYSTEMS = Path(__file__).resolve().parents[1] / "warcouncil" / "systems"
_ANSI = re.compile(r"\x1b\[[0-9;]*m")

#: a family's Python, the shipped pack it plays, and the string literals of
#: that Python that happen to be the name of one of the pack's defines but
#: are no call of it (each checked by hand)
FAMILIES = {
    "grid": ("grid-ancients", {
        "charge_bonus",  # a command point's use (`use == "charge_bonus"`), a symbol
        "movement_points",  # a key of the activation's record
    }),
    "warmaster": ("warmaster", {
        "name",  # a key of the scenario file
    }),
    "cc": ("cca", {
        "command",  # a key of a diff's answer
        "second_move",  # the kind of a game interface action
    }),
}
#: how an engine calls a define by name (the kernel's ``Engine.hook`` in a
#: setting, ``Engine.ask`` in a context the engine made; ``Pack.hook``)
CALLERS = {"hook", "ask", "call"}


def _called(family: str, names) -> set[str]:
    """The defines the family's engine calls: the first string argument of
    every ``hook``/``ask`` call, and every other string literal of its
    Python that names one of the pack's defines or ``every`` hooks (a name
    handed to a helper that calls it: ``_one_die("cover_stops", ...)``,
    ``PENALTY_PREFIX = "penalty_"``). The engine never uses the kernel's
    ``Engine.call`` (any define: for callers outside it)."""
    out = set()
    for f in sorted((SYSTEMS / family).glob("*.py")):
        for n in ast.walk(ast.parse(f.read_text(encoding="utf-8"))):
            name = (getattr(n.func, "attr", None) or getattr(n.func, "id", None)) if isinstance(n, ast.Call) else None
            assert not (family == "grid" and name == "call"), f"{f.name}:{n.lineno}: a define called, not a hook"
            if name in CALLERS:
                out |= {a.value for a in n.args[:2] if isinstance(a, ast.Constant) and isinstance(a.value, str)}
            elif isinstance(n, ast.Constant) and isinstance(n.value, str) and n.value in names:
                out.add(n.value)
    return out


@pytest.mark.parametrize("family", sorted(FAMILIES))
def test_every_hook_called_is_declared_and_every_declared_hook_is_called(family):
    pack_name, not_calls = FAMILIES[family]
    pack = load_pack(pack_name)
    called = _called(family, set(pack.defines) | {n for n, h in pack.hooks.items() if h.every}) - not_calls
    assert called == set(pack.hooks)
    # each with the arity the shipped define has (an `every` hook: each define it stands for)
    assert {n: len(h.params) for n, h in pack.hooks.items() if not h.every} == {
        n: len(pack.defines[n].params) for n, h in pack.hooks.items() if not h.every}
    for n, h in pack.hooks.items():
        if h.every:
            assert {len(pack.defines[d].params) for d in pack.hooked(n)} == {len(h.params)}


def test_the_hooks_declared_per_family():
    # the grid's hooks, as the engine's Python came to ask fewer and the pack to say more:
    # + aftermath_step, step_test_rank: the procedure's order is the pack's;
    # - 19 tables a declared roll reads now, + movement_gives, reform_failed_modifier (tests/test_grid_rolls.py);
    # - movement_gives, reroll_movement_when, returns: check reads the rolls movement and off_table_return;
    # - removed_by, outcome_setback, reform_outcome_setback, retire_turns, retire_steps, lines_lost,
    #   + outcome_effect: what an outcome changes (tests/test_grid_aftermath_effects.py);
    # + stubborn_unit: check asks who is Stubborn as odds does; + free_reroll, - drilled_reroll,
    #   skirmisher_reroll: which free re-rolls a unit has; + attach_refusal: the words refusing an
    #   attachment; + reserve_attachment, used_up, - reserve_removed: what becomes of an attachment
    #   once used (tests/test_grid_pack_knowledge.py)
    assert len(load_pack("grid-ancients").hooks) == 96
    wm = load_pack("warmaster")
    # (+ home_back_reach: the game's home-back destinations; + command_reach: the picture's ranges;
    # + distance_step: the picture's bands; tests/test_warmaster_house_knowledge.py)
    assert sorted(wm.hooks) == ["blunder", "command_reach", "command_value", "distance_step", "home_back_reach",
                                "penalty_", "succeeds", "supplies"]
    assert [n for n, h in wm.hooks.items() if h.every] == ["penalty_"]
    assert wm.hooked("penalty_") == ["penalty_distance", "penalty_successive", "penalty_enemy", "penalty_dense",
                                    "penalty_casualties"]
    assert [n for n, h in load_pack("warmaster").hooks.items() if h.optional] == ["blunder"]
    assert sorted(load_pack("ccm").hooks) == sorted(load_pack("cca").hooks) == [
        "accompanies", "host", "may_battle", "must_battle"]


def test_an_undeclared_hook_is_a_programming_error():
    pack = load_pack("grid-ancients")
    assert pack.hook("zoc", 1) is pack.defines["zoc"]
    with pytest.raises(UndeclaredHook) as e:
        pack.hook("base_cr", 1)  # a define, but no hook
    assert str(e.value) == "the engine calls base_cr with 1 argument(s), but the grid_ancients pack declares no such hook"
    with pytest.raises(UndeclaredHook) as e:
        pack.hook("zoc", 2)
    assert str(e.value) == "the engine calls zoc with 2 argument(s), but the grid_ancients pack declares hook zoc(u)"


def test_the_hook_statement_parses():
    text = ('hook zoc(u) "the squares"\nhook optional blunder(o) "a" " b"\nhook make_way_halts "c"\n'
            'hook every penalty_(o, u) "d"\n')
    assert parse_text(text).statements == (
        A.HookDecl("zoc", ("u",), "the squares"), A.HookDecl("blunder", ("o",), "a b", True),
        A.HookDecl("make_way_halts", (), "c"), A.HookDecl("penalty_", ("o", "u"), "d", every=True))
    assert [h.signature() for h in parse_text(text).statements] == [
        "zoc(u)", "blunder(o)", "make_way_halts()", "penalty_*(o, u)"]


# ---- what a house-rule author sees -------------------------------------------

def _write(tmp_path: Path, text: str) -> str:
    p = tmp_path / "house.wc"
    p.write_text(text, encoding="utf-8")
    return str(p)


def _run(*args):
    r = CliRunner().invoke(main, [str(a) for a in args])
    if r.exception is not None and not isinstance(r.exception, SystemExit):
        raise r.exception
    return r.exit_code, _ANSI.sub("", r.stdout), _ANSI.sub("", r.stderr)


AWAY = ("away_rank(u, d) is a hook the engine calls: which way d unit u moved directly away from a shooter "
        "prefers among ways equally away (higher: first)")
SUPPLIES = ("supplies(o, u) is a hook the engine calls: true when unit u of order attempt o counts for the "
            "penalties (of a brigade: each unit)")
HOST = "host(l) is a hook the engine calls: the unit leader l is attached to (none if he is alone)"

# (pack, the define removed, its line, what the message says, a verb on a scenario of the family)
REMOVALS = [
    ("grid-ancients", "ga.default.away-tie", AWAY, ["activations", "alesia"]),
    ("warmaster", "wm.default.brigade-worst-case", SUPPLIES, ["orders", "ridgeway"]),
    ("cca", "cca.host", HOST, ["orders", "akragas", "--card", "Order Three Units Center"]),
]


@pytest.mark.parametrize("pack,did,says,verb", REMOVALS, ids=[r[0] for r in REMOVALS])
def test_removing_a_hook_is_refused_at_the_remove(tmp_path, pack, did, says, verb):
    f = _write(tmp_path, f"# a house rule\nremove define {did}\n")
    head = f"{f}:2:1: remove define {did}: {says}"
    name = says.split("(")[0]
    hint = f"hint: replace it instead (`replace define {did} {says.split(' is a hook')[0]} := ...`)"
    # lint: exit 1, the hook's problem at the `remove`
    code, out, err = _run("lint", "--over", pack, f)
    assert code == 1
    first = (out + err).split("\n")[:4]
    assert first == [head, f"    remove define {did}", "    ^", hint]
    _, problems = lint([f], base=pack)
    at_remove = [p.message for p in problems if p.location.line == 2]
    assert at_remove[0] == f"remove define {did}: {says}"
    if pack == "cca":  # host is also used by rules: that is said too
        assert at_remove[1].startswith(f"remove define {did}: {name} is still used by cca.")
    else:
        assert len(problems) == 1
    # loading: exit 2, the same first problem, no traceback
    code, out, err = _run(*verb, "--rules", f)
    assert (code, out) == (2, "")
    assert err.split("\n")[:4] == [head, f"    remove define {did}", "    ^", hint]


def test_a_hook_replaced_with_other_parameters_names_the_hook(tmp_path):
    f = _write(tmp_path, "replace define ga.default.away-tie away_rank(u) := 1\n")
    message = ("replace define ga.default.away-tie: away_rank takes 2 argument(s), not 1; the engine calls it as "
               "hook " + AWAY.replace(" is a hook the engine calls", ""))
    _, problems = lint([f], base="grid-ancients")
    assert [(p.message, p.location.line, p.location.column, p.hint) for p in problems] == [
        (message, 1, 1, "keep the parameters: away_rank(u, d) := ...")]
    code, out, err = _run("activations", "alesia", "--rules", f)
    assert (code, out) == (2, "")
    assert err.startswith(f"{f}:1:1: {message}\n")


def test_a_hook_replaced_keeps_the_engine_going(tmp_path):
    """`replace define` of a hook is how a house rule changes it."""
    f = _write(tmp_path, "replace define ga.default.away-tie away_rank(u, d) := 0\n")
    assert lint([f], base="grid-ancients")[1] == []


def test_a_house_rule_cannot_declare_a_hook(tmp_path):
    f = _write(tmp_path, 'hook zoc2(u) "x"\n')
    _, problems = lint([f], base="grid-ancients")
    assert [(p.message, p.location.line, p.hint) for p in problems] == [
        ("hook zoc2: a house rule cannot declare a hook (the engine's Python calls it)", 1, "write a `define` instead")]


def test_a_pack_that_declares_a_hook_it_does_not_define(tmp_path):
    d = tmp_path / "mine"
    d.mkdir()
    (d / "00-pack.wc").write_text('pack mine "Mine"\nhook zoc(u) "the squares"\nhook optional extra(u) "x"\n'
                                  'define mine.extra extra(u, v) := 1\n', encoding="utf-8")
    _, problems = lint([str(d)])
    assert [(p.message, p.location.line, p.hint) for p in problems] == [
        ("hook zoc(u): the pack defines no zoc", 2, "the engine calls it: define zoc(u) := ..."),
        ("extra takes 2 argument(s), but the engine calls it as hook extra(u): x", 4, "write extra(u) := ...")]
    pack = load_pack(str(d))
    with pytest.raises(WarcouncilError) as e:
        pack.hook("zoc", 1)
    assert e.value.message == "the rule pack has no define zoc, a hook the engine calls: the squares"


def test_an_optional_hook_not_defined_is_not_asked(tmp_path):
    d = tmp_path / "mine"
    d.mkdir()
    (d / "00-pack.wc").write_text('pack mine "Mine"\nhook optional blunder(o) "x"\n', encoding="utf-8")
    assert lint([str(d)])[1] == []
    assert load_pack(str(d)).hook("blunder", 1) is None


def test_a_penalty_of_a_house_rule_takes_the_hooks_parameters(tmp_path):
    """Warmaster calls every define named penalty_* (`hook every penalty_(o, u)`):
    a house rule's new penalty with other parameters is refused at its define."""
    f = _write(tmp_path, "# a house rule\ndefine house.penalty-rain penalty_rain(o) := 1\n")
    message = ("penalty_rain takes 1 argument(s), but the engine calls every penalty_* define as hook "
               "penalty_*(o, u): a command penalty: what unit u of order attempt o costs (the worst over the "
               "units that supply it is taken off the Command value); any number of them")
    _, problems = lint([f], base="warmaster")
    assert [(p.message, p.location.line, p.location.column, p.hint) for p in problems] == [
        (message, 2, 1, "write penalty_rain(o, u) := ...")]
    code, out, err = _run("orders", "ridgeway", "--rules", f)
    assert (code, out) == (2, "")
    assert err.startswith(f"{f}:2:1: {message}\n")
    # with the hook's parameters it is one more penalty
    g = _write(tmp_path, "define house.penalty-rain penalty_rain(o, u) := 1\n")
    assert lint([g], base="warmaster")[1] == []
    assert load_pack("warmaster", [g]).hooked("penalty_")[-1] == "penalty_rain"
