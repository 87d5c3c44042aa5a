"""Tiny Grid's turn for the game interface (``kernel/game.py``): the steps
of its pack's ``turn`` (``tg.turn``: one ``decide`` step, the side to move
activates a set of its units, listed by the kernel's ``SetEngine``), then
the turn is over. A position is the set chosen, or None before it."""

from __future__ import annotations

from warcouncil.kernel.game import IllegalAction, StepTurn, refuse, scenario_data


class Activation(StepTurn):
    kinds = frozenset({"activate"})  # (the actions its pack's turn may name)

    def start(self):
        return None

    def at(self, position):
        return 0 if position is None else None  # (one step: once taken, the turn is over)

    def mover(self, position):
        return self.engine.scenario.to_move

    def step_actions(self, position, kinds):
        return [self.worded(None, {"kind": "activate", "units": [p.id for p in s]})
                for s in self.engine.all_decisions()]

    def play(self, position, action):
        if action.get("kind") not in self.kinds or not isinstance(action.get("units"), list):
            raise IllegalAction("an action here is {kind: activate, units: [ids]}")
        self.enter(self.at(position), action["kind"])
        # (an unknown piece is bad input, refused too)
        refuse("", lambda: [v.as_json() for v in self.engine.check(action["units"]).violations])
        return tuple(action["units"])

    def worded(self, position, action):
        return {**action, "text": "activate " + (", ".join(action["units"]) or "nothing")}

    def draw(self, position, select=None, node=None):
        """The squares and the units (each ``data-piece``, ``data-at``; the
        activated ones ringed), drawn with the kernel's picture toolkit: the
        family gives its geometry (a square ``cell`` pixels wide) and words.
        An activation moves nothing: no ``data-legal-to``."""
        from warcouncil.kernel.picture import SELECTED, colours, document, group

        sc, cell = self.engine.scenario, 40
        w, d = sc.board.width, sc.board.depth
        fill = colours(sc.sides, ("#c0392b", "#2c5aa0"))
        out = [f'<rect x="{c * cell}" y="{r * cell}" width="{cell}" height="{cell}" fill="#fff" stroke="#bbb"/>'
               for r in range(d) for c in range(w)]
        for p in sc.all_pieces:
            pid, (c, r) = p.id, p.at
            ring = SELECTED if pid == select else "#222" if pid in (position or ()) else "none"
            out.append(group("piece unit", {"data-piece": pid, "data-at": f"{c},{r}"}, f"{pid} ({p.type})",
                             f'<rect x="{c * cell + 4}" y="{r * cell + 4}" width="{cell - 8}" height="{cell - 8}" '
                             f'fill="{fill[p.side]}" stroke="{ring}" stroke-width="3"/>'))
        return document(w * cell, d * cell, f"{sc.name}: {sc.to_move} to move", out)

    def log(self, position):
        return {"orders": list(position or ())}

    def next_scenario(self, turn):
        """The same board, the other side to move."""
        return scenario_data(self.engine.scenario, self.engine.scenario.to_move)
