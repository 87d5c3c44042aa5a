"""The System class: the C&C system declares what the kernel asks of it,
and the kernel reads it (planner classes, builtin meanings, hooks, verbs)."""

from __future__ import annotations

import pytest

from warcouncil.dsl.pack import load_pack
from warcouncil.errors import WarcouncilError
from warcouncil.solver.plan import Plan
from warcouncil.kernel.system import System
from warcouncil.systems.cc import CommandsAndColors


def test_packs_find_their_system() -> None:
    assert System.for_pack("cca") is CommandsAndColors
    assert System.for_pack("ccm") is CommandsAndColors
    assert System.for_pack(load_pack("ccm")) is CommandsAndColors
    with pytest.raises(WarcouncilError) as e:
        System.for_pack("ccx")
    assert e.value.message == "no game system plays the rule pack 'ccx'"
    assert e.value.hint.startswith("did you mean 'ccm'?") and "known: cca, ccm" in e.value.hint


def test_the_planner_classes_come_from_the_system() -> None:
    kinds = {r.id: r.kind for r in Plan(load_pack("cca")).order_rules}
    assert {k: kinds[k] for k in ("cca.all-means-all", "cca.card-capacity", "cca.leadership-chain",
                                   "cca.linked-group", "cca.surplus-orders-lost")} == {
        "cca.all-means-all": "filled", "cca.card-capacity": "capacity", "cca.leadership-chain": "led",
        "cca.linked-group": "linked", "cca.surplus-orders-lost": "assignable"}
    kinds = {r.id: r.kind for r in Plan(load_pack("ccm")).order_rules}
    assert (kinds["ccm.section-orders-lost"], kinds["ccm.tactic-orders-lost"]) == ("assignable", "assignable")


def test_verbs() -> None:
    assert CommandsAndColors.answers("orders") and not CommandsAndColors.answers("odds")
    with pytest.raises(WarcouncilError) as e:
        CommandsAndColors.require_verb("activations")
    assert e.value.message == "`activations` makes no sense for Commands & Colors scenarios"
    assert e.value.hint == "it answers: orders, moves, turns, check, cards, diff"
