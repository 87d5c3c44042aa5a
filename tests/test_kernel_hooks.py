"""How an engine asks its pack (the kernel's ``Engine``: ``hook``, ``ask``,
``ordered``, ``roll``, ``decided``, ``roll_of``, ``call``), on its own: the toy family
Tiny Grid (``tests/tinygrid/``), its pack copied here with a file of hooks,
ranks and rolls added (``ASKED``), evaluated in the kernel's own context
(``Engine.context``: the setting as it stands). No game family's engine is
loaded; the grid and Warmaster ask their packs through these.

* a hook's value, and an optional hook the pack does not define: none;
* a hook whose define takes other parameters than the engine gives, and any
  define called with the wrong arity: bad input at the define's place;
* ``ordered``: lower rank first, a tie as listed, ``none`` dropped when
  droppable and refused when not, a rank that is no number refused;
* ``roll``: the exact law, the outcome of faces, faces too few to decide it,
  ``decided`` for a first die, ``roll_of`` the roll and its arguments; a
  roll the pack does not declare.
"""

from __future__ import annotations

import shutil
import sys
from fractions import Fraction as F
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
TINY = HERE / "tinygrid"

sys.path.insert(0, str(HERE))  # the tiny game's System: tinygrid/system.py

from tinygrid.system import TinyGrid  # noqa: E402,F401  (registers the system)

from warcouncil.dsl.pack import UndeclaredHook, load_pack  # noqa: E402
from warcouncil.errors import WarcouncilError  # noqa: E402
from warcouncil.kernel.engine import Engine  # noqa: E402
from warcouncil.kernel.scenario import load_scenario  # noqa: E402

SENTENCES = ("A unit reaches one square farther than its movement allowance. "
             "A unit moves before it fires and rallies with it; it never rests. "
             "A charge hits on a 4 or more, and routs the enemy when the second die shows a 6.\n")
ASKED = '''# What the engine asks (tests/test_kernel_hooks.py).
values step: move, fire, rally, rest
values charge_result: win, lose, rout

hook reach(u) "how many squares unit u reaches"
hook optional bonus(u) "a bonus of unit u (none without the define)"
hook step_rank(k) "where step k of the procedure comes: lower first; none: not taken"
hook odd_rank(k) "a rank that is not always a number"
hook yes_rank(k) "a rank that is a truth value"
hook optional spare_rank(k) "a rank the pack may leave undefined"

define tg.reach
    from tg "A unit reaches one square farther than its movement allowance."
    reach(u) := u.move + 1

define tg.step-rank
    from tg "A unit moves before it fires and rallies with it; it never rests."
    step_rank(k) := if k == move then 1 else if k == fire then 2 else if k == rally then 2 else none

define tg.odd-rank
    from tg "A unit moves before it fires and rallies with it; it never rests."
    odd_rank(k) := if k == move then 1 else k

define tg.yes-rank
    from tg "A unit moves before it fires and rallies with it; it never rests."
    yes_rank(k) := k == move

define tg.far
    from tg "A unit reaches one square farther than its movement allowance."
    far(u, n) := reach(u) >= n

roll tg.roll.charge
    from tg "A charge hits on a 4 or more, and routs the enemy when the second die shows a 6."
    charge(need = 4) dice d1, d2 := if d1 >= need then (if d2 == 6 then rout else win) else lose

roll tg.roll.dash
    from tg "A unit reaches one square farther than its movement allowance."
    dash(u) dice d := d <= reach(u)
'''


def _engine(tmp_path: Path, asked: str = ASKED, lint: bool = True):
    """The skirmish of Tiny Grid, its pack with ``asked`` added; loaded as
    the command line loads it (the pack linted first) unless not ``lint``."""
    shutil.copytree(TINY / "pack", tmp_path / "pack")
    shutil.copy(TINY / "skirmish.yaml", tmp_path / "skirmish.yaml")
    (tmp_path / "pack" / "50-asked.wc").write_text(asked, encoding="utf-8")
    with open(tmp_path / "pack" / "rules.txt", "a", encoding="utf-8") as f:
        f.write("\n" + SENTENCES)
    if lint:
        return Engine.load(str(tmp_path / "skirmish.yaml"))
    return Engine(load_scenario(str(tmp_path / "skirmish.yaml")), load_pack(str(tmp_path / "pack")))


@pytest.fixture
def eng(tmp_path):
    return _engine(tmp_path)


def _line(path: Path, text: str) -> int:
    """The line of ``path`` that ``text`` begins."""
    return next(i for i, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1) if text in line)


# ---- hooks --------------------------------------------------------------------

def test_a_hook_is_the_value_of_its_define(eng):
    s = eng.setting("red")
    assert {u: eng.hook(s, "reach", s.by_id[u]) for u in ("a1", "c1", "i1")} == {"a1": 1, "c1": 3, "i1": 2}
    # `ask`: the same, in a context the engine made (its hot path)
    assert eng.ask(eng.context(s), "reach", s.by_id["c1"]) == 3
    # an optional hook the pack does not define answers none
    assert eng.hook(s, "bonus", s.by_id["c1"]) is None


def test_a_hook_asked_with_the_wrong_arity(eng):
    s = eng.setting("red")
    with pytest.raises(UndeclaredHook) as e:  # (the engine's mistake, not the pack's)
        eng.hook(s, "reach", s.by_id["c1"], 2)
    assert str(e.value) == ("the engine calls reach with 2 argument(s), but the tinygrid pack declares "
                            "hook reach(u)")
    with pytest.raises(UndeclaredHook):
        eng.hook(s, "far", s.by_id["c1"], 2)  # a define, but no hook


def test_a_hook_whose_define_takes_other_parameters_is_bad_input_at_the_define(tmp_path):
    eng = _engine(tmp_path, ASKED.replace("reach(u) := u.move + 1", "reach(u, v) := u.move + v"), lint=False)
    s = eng.setting("red")
    with pytest.raises(WarcouncilError) as e:
        eng.hook(s, "reach", s.by_id["c1"])
    f = tmp_path / "pack" / "50-asked.wc"
    assert e.value.message == ("reach takes 2 argument(s), but the engine calls it with 1: how many squares "
                               "unit u reaches")
    assert (e.value.location.file, e.value.location.line) == (str(f), _line(f, "define tg.reach"))


def test_calling_a_define_with_the_wrong_arity_is_bad_input_at_the_define(eng, tmp_path):
    s = eng.setting("red")
    assert eng.call(s, "far", s.by_id["c1"], 3) is True  # any define, not only a hook
    assert eng.call(s, "far", s.by_id["c1"], 4) is False
    with pytest.raises(WarcouncilError) as e:
        eng.call(s, "far", s.by_id["c1"])
    f = tmp_path / "pack" / "50-asked.wc"
    assert e.value.message == "far takes 2 argument(s) in this rule pack, not 1"
    assert (e.value.location.file, e.value.location.line) == (str(f), _line(f, "define tg.far"))
    with pytest.raises(WarcouncilError) as e:
        eng.call(s, "farther", s.by_id["c1"])
    assert (e.value.message, e.value.location) == ("the rule pack has no define 'farther'", None)


# ---- ordered ------------------------------------------------------------------

def test_ordered_ranks_lower_first_a_tie_as_listed_and_drops_none(eng):
    s = eng.setting("red")
    assert eng.ordered(s, "step_rank", ["rally", "fire", "move", "rest"], droppable=True) == ["move", "rally", "fire"]
    assert eng.ordered(s, "step_rank", ["fire", "rally", "move"]) == ["move", "fire", "rally"]
    assert eng.ordered(s, "step_rank", [], droppable=True) == []


def test_ordered_refuses_none_where_a_step_cannot_be_dropped(eng, tmp_path):
    s = eng.setting("red")
    with pytest.raises(WarcouncilError) as e:
        eng.ordered(s, "step_rank", ["move", "rest"])
    f = tmp_path / "pack" / "50-asked.wc"
    assert e.value.message == "step_rank(rest) is none: a rank is a number (lower first)"
    assert (e.value.location.file, e.value.location.line) == (str(f), _line(f, "define tg.step-rank"))


def test_ordered_refuses_a_rank_that_is_no_number(eng, tmp_path):
    s = eng.setting("red")
    f = tmp_path / "pack" / "50-asked.wc"
    with pytest.raises(WarcouncilError) as e:
        eng.ordered(s, "odd_rank", ["move", "fire"], droppable=True)
    assert e.value.message == "odd_rank(fire) is fire: a rank is a number (lower first) or none"
    assert e.value.location.line == _line(f, "define tg.odd-rank")
    with pytest.raises(WarcouncilError) as e:  # a truth value is no number
        eng.ordered(s, "yes_rank", ["move"])
    assert e.value.message == "yes_rank(move) is True: a rank is a number (lower first)"
    assert e.value.location.line == _line(f, "define tg.yes-rank")


def test_an_optional_rank_the_pack_does_not_define_is_bad_input_at_the_hook(eng, tmp_path):
    # no define to point at: the hook's declaration is the place
    f = tmp_path / "pack" / "50-asked.wc"
    with pytest.raises(WarcouncilError) as e:
        eng.ordered(eng.setting("red"), "spare_rank", ["move"])
    assert e.value.message == "spare_rank(move) is none: a rank is a number (lower first)"
    assert (e.value.location.file, e.value.location.line) == (str(f), _line(f, "hook optional spare_rank"))
    assert eng.ordered(eng.setting("red"), "spare_rank", ["move"], droppable=True) == []

# ---- rolls --------------------------------------------------------------------

def test_a_rolls_law(eng):
    s = eng.setting("red")
    # in the order the outcomes first appear, the faces counted up from all 1s
    assert list(eng.roll(s, "charge", {}).items()) == [("lose", F(1, 2)), ("win", F(5, 12)), ("rout", F(1, 12))]
    assert eng.roll(s, "charge", {"need": 5, "unit": "not read"}) == {"lose": F(2, 3), "win": F(5, 18),
                                                                      "rout": F(1, 18)}
    # a roll reads the setting through the engine's context: cavalry c1 reaches 3
    assert eng.roll(s, "dash", {"u": s.by_id["c1"]}) == {True: F(1, 2), False: F(1, 2)}
    # the roll itself, its context and its arguments (a default where not given; what it has no
    # parameter for not read)
    r, ctx, args = eng.roll_of(s, "charge", {"unit": "c1"})
    assert (r.decl.id, r.n, args) == ("tg.roll.charge", 2, {"need": 4})
    assert r.law(ctx, eng.roll_of(s, "charge", {"need": 6})[2]) == {"lose": F(5, 6), "win": F(5, 36), "rout": F(1, 36)}


def test_the_faces_of_a_roll(eng, tmp_path):
    s = eng.setting("red")
    assert eng.roll(s, "charge", {}, (4, 6)) == "rout"
    assert eng.roll(s, "charge", {"need": 5}, (4, 6)) == "lose"
    assert eng.roll(s, "charge", {}, (3,)) == "lose"  # the first die decides it: no second die is read
    with pytest.raises(WarcouncilError) as e:
        eng.roll(s, "charge", {}, (5,))
    f = tmp_path / "pack" / "50-asked.wc"
    assert e.value.message == "roll tg.roll.charge rolls 2 dice (d1, d2), but a turn file gives 1 for a try of it"
    assert (e.value.location.file, e.value.location.line) == (str(f), _line(f, "roll tg.roll.charge"))


def test_whether_the_first_dice_decide_a_roll(eng):
    s = eng.setting("red")
    assert eng.decided(s, "charge", {}, (3,)) == (True, "lose")
    assert eng.decided(s, "charge", {}, (5,)) == (False, None)
    assert eng.decided(s, "charge", {}, (5, 6)) == (True, "rout")
    assert eng.decided(s, "charge", {"need": 7}, ()) == (True, "lose")


def test_a_roll_the_pack_does_not_declare(eng):
    with pytest.raises(WarcouncilError) as e:
        eng.roll(eng.setting("red"), "volley", {})
    assert (e.value.message, e.value.location, e.value.hint) == (
        "the rule pack declares no roll volley, which the engine rolls", None,
        "declare it: roll ID volley(...) dice d1, ... := ...")
    with pytest.raises(WarcouncilError) as e:
        eng.decided(eng.setting("red"), "volley", {}, (1,))
    assert e.value.message == "the rule pack declares no roll volley, which the engine rolls"
