"""The game-independent packages (warcouncil/kernel, the planner
warcouncil/solver, warcouncil/world) name no card, no leader, no C&C board,
no second move and no helmet in their code: the piece lists and their roles, the
named boards, the turn's keys and phases and what fixes a decision (C&C's
card: ``System.context``) are the systems' (docs/design.md §2.2). Docstrings
and comments may mention them as examples.

``card`` is matched as the start of a word (``card``, ``card_view``,
``CardDecl``, ``_card``), never inside one (``discard``) nor as
``cardinality``."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import warcouncil.kernel
import warcouncil.solver
import warcouncil.world

#: every package that knows no game family
GAME_INDEPENDENT = (warcouncil.kernel, warcouncil.solver, warcouncil.world)

FORBIDDEN = re.compile(r"leader|second_move|helmet|\bcca\b|\bccm\b|dionysius|(?<![a-z])card(?!inal)", re.I)

#: names the kernel keeps, each for the reason docs/design.md §2.2 gives
ALLOWED = {
    # the command line's verbs, one list for `require_verb`'s hint: `cards`
    # is the contract's verb (interface.md), answered only by a card system
    "kernel/system.py": {"cards"},
}


def names_in_code(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docs = {id(n.body[0].value) for n in ast.walk(tree)
            if isinstance(n, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and ast.get_docstring(n)}
    out = set()
    for n in ast.walk(tree):
        if isinstance(n, ast.Name):
            out.add(n.id)
        elif isinstance(n, ast.Attribute):
            out.add(n.attr)
        elif isinstance(n, (ast.FunctionDef, ast.ClassDef, ast.AsyncFunctionDef)):
            out.add(n.name)
        elif isinstance(n, ast.arg):
            out.add(n.arg)
        elif isinstance(n, ast.Constant) and isinstance(n.value, str) and id(n) not in docs:
            out.add(n.value)
    return out


def test_the_kernel_names_no_card_leader_board_or_second_move() -> None:
    files = {f"{f.parent.name}/{f.name}": f for pkg in GAME_INDEPENDENT for f in Path(pkg.__file__).parent.glob("*.py")}
    found = {k: sorted(w for w in names_in_code(f) if FORBIDDEN.search(w) and w not in ALLOWED.get(k, ()))
             for k, f in sorted(files.items())}
    assert {f: ws for f, ws in found.items() if ws} == {}


def test_every_allowed_name_is_still_there() -> None:
    """An allowance that is no longer needed is dropped, not kept."""
    root = Path(warcouncil.kernel.__file__).parent.parent
    assert {f: names & names_in_code(root / f) for f, names in ALLOWED.items()} == ALLOWED


def test_the_check_finds_a_name_in_code(tmp_path: Path) -> None:
    f = tmp_path / "x.py"
    f.write_text('"""A leader in a docstring is fine."""\n# and in a comment\nown_leaders = 1\n'
                 'card_view = x.discard(CardDecl, cardinality, the_card, "card", played_card)\n', encoding="utf-8")
    assert {w for w in names_in_code(f) if FORBIDDEN.search(w)} == {
        "own_leaders", "card_view", "CardDecl", "the_card", "card", "played_card"}
