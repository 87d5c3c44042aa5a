"""Every example of the README and the docs runs and gives the answer its
text says (issue 12: "the README's own turn-file example is illegal when
saved and checked").

* ``docs/*.md``: each fenced block of ``$ …`` lines is a terminal session:
  ``$ cat FILE`` shows a file (written here), ``$ warcouncil …`` shows a
  command and its whole output (compared line by line), ``$ echo $?`` the
  exit code of the command before.
* ``README.md``: every command of "Using it" exits 0 (the placeholders
  ``my-house-rules.wc``, ``turn.yaml`` and ``board.svg`` stand for a shipped
  house file, the README's turn file and a file here); the turn file is
  legal; the rule-language screen parses; the house-rule example lints clean.
"""

from __future__ import annotations

import re
import shlex
import shutil
from pathlib import Path

import pytest

from conftest import run_cli
from warcouncil.dsl.parser import parse_text

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")
DOCS = sorted((ROOT / "docs").glob("*.md"))
SHOWN_ROOT = "/work/main"  # the repository as the docs' outputs show it


def fenced(text: str) -> list[tuple[int, str]]:
    """(line number, body) of each fenced block."""
    out = []
    for m in re.finditer(r"^```[^\n]*\n(.*?)^```", text, re.M | re.S):
        out.append((text.count("\n", 0, m.start()) + 1, m.group(1)))
    return out


def sessions() -> list:
    found = []
    for doc in DOCS:
        for line, body in fenced(doc.read_text(encoding="utf-8")):
            if body.lstrip().startswith("$ "):
                found.append(pytest.param(body, id=f"{doc.name}:{line}"))
    return found


def workspace(tmp_path: Path, monkeypatch) -> Path:
    """A folder like a user's: the shipped house files next to it, and the
    repository's ``warcouncil/`` and ``tests/`` folders for the paths the
    docs give from them."""
    for f in (ROOT / "warcouncil" / "examples" / "house").glob("*.wc"):
        shutil.copy(f, tmp_path / f.name)
    (tmp_path / "warcouncil").symlink_to(ROOT / "warcouncil")
    (tmp_path / "tests").symlink_to(ROOT / "tests")  # the worked example of design §2.1, tests/tinygrid/
    monkeypatch.chdir(tmp_path)
    return tmp_path


def shown(text: str) -> list[str]:
    return [line.rstrip() for line in text.replace(str(ROOT), SHOWN_ROOT).strip("\n").splitlines()]


@pytest.mark.parametrize("body", sessions())
def test_doc_session(body: str, tmp_path: Path, monkeypatch) -> None:
    here = workspace(tmp_path, monkeypatch)
    steps = re.split(r"^\$ ", body, flags=re.M)[1:]
    code = None
    for step in steps:
        command, _, rest = step.partition("\n")
        words = shlex.split(command, comments=True)
        if words[0] == "cat":
            (here / words[1]).write_text(rest, encoding="utf-8")
            continue
        if words[:2] == ["echo", "$?"]:
            assert rest.strip() == str(code), command
            continue
        assert words[0] == "warcouncil", command
        code, out, err = run_cli(*words[1:])
        assert shown(out + err) == shown(rest), f"$ {command}"


def test_the_docs_have_sessions() -> None:
    assert len(sessions()) >= 8


# ------------------------------------------------------------------ README


def readme_block(after: str) -> str:
    at = README.index(after)
    return next(body for line, body in fenced(README[at:]))


def using_it() -> list[str]:
    at = README.index("## Using it")
    block = README[at:README.index("\n\n", README.index("    warcouncil", at))]
    return [line.strip() for line in block.splitlines() if line.startswith("    warcouncil ")]


@pytest.mark.parametrize("command", using_it())
def test_readme_command(command: str, tmp_path: Path, monkeypatch) -> None:
    here = workspace(tmp_path, monkeypatch)
    (here / "turn.yaml").write_text(readme_block("A turn file for `check`"), encoding="utf-8")
    words = shlex.split(command.replace("my-house-rules.wc", "detach-any-card.wc"), comments=True)
    code, out, err = run_cli(*words[1:])
    assert (code, err) == (0, ""), command
    assert out.strip()


def test_readme_has_its_commands() -> None:
    assert len(using_it()) >= 12


def test_readme_turn_file_is_legal(tmp_path: Path) -> None:
    turn = tmp_path / "turn.yaml"
    turn.write_text(readme_block("A turn file for `check`"), encoding="utf-8")
    assert run_cli("check", "akragas", turn) == (0, "legal\n", "")


def test_readme_rule_language_screen_parses() -> None:
    rf = parse_text(readme_block("## The rule language in one screen"), "README.md")
    kinds = [type(s).__name__ for s in rf.statements]
    assert kinds == ["DefineDecl", "RuleDecl", "CardDecl", "CardDecl"]


def test_readme_house_rule_lints_clean(tmp_path: Path) -> None:
    house = tmp_path / "house.wc"
    house.write_text(readme_block("House rules are files layered over a pack"), encoding="utf-8")
    code, out, err = run_cli("lint", house, "--over", "cca")
    assert (code, err) == (0, "") and out.startswith("clean: ")
