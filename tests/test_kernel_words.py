"""Pieces in words, the kernel's one wording (``kernel/words.py``) that
every family's ``words.py`` writes its pieces with: a piece's kind, its id
and its place; a list of pieces by id, an id not there left as it is."""

from __future__ import annotations

from types import SimpleNamespace as Piece

from warcouncil.kernel.words import listed, piece_kind, piece_named


def test_a_piece_named():
    assert piece_named("heavy_infantry", "s4", "5,7") == "heavy infantry s4 at 5,7"
    assert piece_named("leader", "daphnaeus") == "leader daphnaeus"  # no place: the name alone
    assert piece_named(None, "r1", "4,5") == "r1 at 4,5"  # no kind: the id alone
    assert piece_named("", 7) == "7"


def test_a_pieces_kind_is_a_units_type_else_its_role():
    pieces = [Piece(role="unit", type="light_cavalry"), Piece(role="unit", type=None), Piece(role="leader", type=None),
              Piece(role="general", type="x")]
    assert [piece_kind(p) for p in pieces] == ["light_cavalry", "unit", "leader", "general"]


def test_pieces_listed_by_id():
    by_id = {"a": Piece(id="a", n=1), "b": Piece(id="b", n=2)}
    assert listed(by_id, ["b", "x", "a"], lambda p: f"{p.id}={p.n}") == "b=2, x, a=1"
    assert listed(by_id, [], str) == ""
