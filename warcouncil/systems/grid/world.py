"""What the grid-ancients rules are evaluated on: the board and the units at
one moment (a ``GridSetting``), and the grounding (``World``) the kernel's
evaluation context (``kernel.ground.Ctx``) carries to the compiled closures
(``ctx.g.setting``, ``ctx.g.memo``; a grid decision has none of the
kernel's decision fields: it is judged through ``activation``).

A ``GridSetting`` is immutable in spirit: a unit that moves, turns or
becomes Disordered gives a new setting (``moved``), so that the kernel's
per-setting memo of static defines stays true.
"""

from __future__ import annotations

import dataclasses

from ...records import record
from .facing import Footprint
from ...kernel.ground import PieceView, Record

WIDTH, DEPTH = 2, 1


@record
class UnitState:
    """Where a unit is and what state it is in at one moment."""

    at: tuple
    facing: str
    disordered: bool
    off_table: bool
    gone: bool = False  # removed from play (routed, destroyed, pushed off the table): it cannot return
    dr_plus: int = 0  # added to its Discipline Rating for good (Centurion Casualties)
    lost: frozenset = frozenset()  # attachments used up and removed from play
    general_lost: bool = False  # its General was killed or seriously wounded

    def __post_init__(self):
        object.__setattr__(self, "at", tuple(self.at))

    def replace(self, **kw) -> "UnitState":
        return dataclasses.replace(self, **kw)


class GridSetting:
    """The board and the units at one moment, seen from ``side``."""

    def __init__(self, pack, scenario, side: str, states: dict | None = None, tired: frozenset = frozenset()):
        self.pack = pack
        self.tired = tired  # the sides whose armies became Fatigued along the sequence
        self.scenario = scenario
        self.board = scenario.board
        self.side = side
        self.states = states if states is not None else {
            u.id: UnitState(u.at, u.facing, u.disordered, u.off_table) for u in scenario.units}
        self.terrain = {t.at: t.type for t in scenario.terrain}
        self.generals = {g.attached_to for g in scenario.generals
                         if g.attached_to and not self.states[g.attached_to].general_lost}
        self.side_view = Record(name=side, edge=scenario.sides[side].edge, command=0)
        self.memo: dict = {}
        views = []
        order = sorted(scenario.units, key=lambda u: (u.side != side, u.id))
        for rank, u in enumerate(order):
            st = self.states[u.id]
            attrs = {k: v for k, v in (pack.units[u.type].attrs if u.type in pack.units else ())}
            attrs.update(facing=st.facing, combat=u.combat, ranged=u.ranged, manoeuvre=u.manoeuvre,
                         discipline=u.discipline + st.dr_plus)
            v = PieceView(u, "unit", attrs, rank)
            v.at = st.at
            views.append(v)
        self.views = views
        self.by_id = {v.id: v for v in views}
        self.foot = {v.id: Footprint(self.states[v.id].at, self.states[v.id].facing, WIDTH, DEPTH)
                     for v in views if not self.states[v.id].off_table}
        on = [v for v in views if v.id in self.foot]
        self.own_units = frozenset(v for v in on if v.side == side)
        self.enemy_units = frozenset(v for v in on if v.side != side)
        self.all_units = self.own_units | self.enemy_units
        self.own_leaders = self.enemy_leaders = self.all_leaders = self.own_pieces = frozenset()
        self.own_pieces = self.own_units
        self.occupant = {sq: v for v in on for sq in self.foot[v.id].squares}
        self.unit_at = self.occupant
        self.leader_at: dict = {}
        # the pools by role the kernel's role builtins read (kernel.builtins.role_meanings)
        self.roles, self.slot = ("unit",), {"unit": 0}
        self.own_of, self.enemy_of = {"unit": self.own_units}, {"unit": self.enemy_units}
        self.all_of, self.at_of = {"unit": self.all_units}, {"unit": self.occupant}
        by_side: dict[str, set] = {}
        for v in on:
            by_side.setdefault(v.side, set()).add(v)
        self._by_side = {k: frozenset(s) for k, s in by_side.items()}
        self._chars = {u.id: frozenset(u.characteristics) | frozenset(u.attachments) for u in scenario.units}

    # -- what the builtins read -------------------------------------------
    def footprint(self, v) -> Footprint | None:
        return self.foot.get(v.id)

    def squares(self, v) -> frozenset:
        f = self.foot.get(v.id)
        return frozenset(f.squares) if f else frozenset()

    def has(self, v, name) -> bool:
        return name in self._chars[v.id] and name not in self.states[v.id].lost

    def state(self, v) -> UnitState:
        return self.states[v.id]

    def enemies_of(self, v) -> frozenset:
        return frozenset().union(*(s for k, s in self._by_side.items() if k != v.side))

    def friends_of(self, v) -> frozenset:
        return self._by_side.get(v.side, frozenset()) - {v}

    def cell_of(self, x):
        if isinstance(x, PieceView):
            return x.at
        return tuple(x) if x is not None else None

    def fatigued(self, v) -> bool:
        return self.scenario.sides[v.side].fatigued or v.side in self.tired

    def moved(self, uid: str, **changes) -> "GridSetting":
        """The setting after unit ``uid`` changed (``at``, ``facing``,
        ``disordered``, ``off_table``)."""
        states = dict(self.states)
        states[uid] = states[uid].replace(**changes)
        return GridSetting(self.pack, self.scenario, self.side, states, self.tired)

    def fatigue(self, side: str) -> "GridSetting":
        """The setting after ``side``'s army became Fatigued."""
        return GridSetting(self.pack, self.scenario, self.side, self.states, self.tired | {side})


class World:
    """The grounding-like object the compiled closures read (``ctx.g``):
    the setting, the define memo, and the activation being judged."""

    def __init__(self, setting: GridSetting, compiler, activation=None):
        self.setting = setting
        self.compiler = compiler
        self.memo: dict = {}
        self.activation = activation
