"""Shell completion (issue 30): click's, for verbs and options; SCENARIO
offers the shipped scenarios by name and the shell's files; --card and
--copies the cards of the scenario on the command line (every shipped
pack's when there is none)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from click.shell_completion import ShellComplete

from warcouncil import cli

ROOT = Path(__file__).resolve().parent.parent


def complete(*args: str) -> list[tuple[str, str]]:
    """The candidates for the last argument (the one being typed), as
    (type, value), through click's machinery."""
    *given, incomplete = args
    comp = ShellComplete(cli.main, {}, "warcouncil", cli.COMPLETE_VAR)
    return [(c.type, c.value) for c in comp.get_completions(list(given), incomplete)]


def plain(*values: str) -> list[tuple[str, str]]:
    return [("plain", v) for v in values]


def test_verbs() -> None:
    assert complete("o") == plain("odds", "orders")
    assert complete("t") == plain("turns")
    assert complete("c") == plain("cards", "check")


def test_options_of_a_verb_with_those_the_families_add() -> None:
    assert complete("orders", "akragas", "--c") == plain("--count", "--card", "--copies", "--command")
    assert complete("orders", "ridgeway", "--a") == plain("--after")
    assert complete("moves", "akragas", "--s") == plain("--side", "--svg")
    assert complete("lint", "--o") == plain("--over")


def test_shipped_scenarios_and_files() -> None:
    assert complete("orders", "a") == [("file", "a"), *plain("akragas", "alesia")]
    assert complete("check", "r") == [("file", "r"), *plain("ridgeway")]
    assert complete("odds", "./r") == [("file", "./r")]  # a path: the shell's


def test_cards_of_the_scenario_on_the_command_line() -> None:
    assert complete("orders", "akragas", "--card", "order t") == plain(
        "Order Two Units Left", "Order Two Units Center", "Order Two Units Right",
        "Order Three Units Left", "Order Three Units Center", "Order Three Units Right")
    # matched as --card matches: case, spaces and hyphens ignored
    assert complete("moves", "akragas", "--card", "movefire") == plain("Move-Fire-Move")
    assert complete("turns", "akragas", "--copies", "LINE") == plain("Line Command")
    # the pack's own: Medieval's cards for its scenario, none of Ancients' alone
    assert complete("orders", "practice_field", "--card", "order u") == plain(
        "Order Units Equal to Command Left", "Order Units Equal to Command Center",
        "Order Units Equal to Command Right")
    assert complete("orders", "akragas", "--card", "order u") == []
    assert complete("orders", "ridgeway", "--card", "") == []  # Warmaster has no cards


def test_every_shipped_packs_cards_without_a_scenario() -> None:
    assert complete("orders", "--card", "order m") == plain("Order Medium Troops", "Order Mounted Troops")
    assert complete("orders", "--card", "order u") == plain(
        "Order Units Equal to Command Left", "Order Units Equal to Command Center",
        "Order Units Equal to Command Right")
    assert complete("orders", "no-such-scenario.yaml", "--card", "cry") == plain("Cry Havoc")


def _protocol(shell: str, words: str, cword: int) -> str:
    env = {**os.environ, cli.COMPLETE_VAR: f"{shell}_complete", "COMP_WORDS": words, "COMP_CWORD": str(cword)}
    done = subprocess.run([sys.executable, "-m", "warcouncil"], capture_output=True, text=True, env=env,
                          timeout=120)
    assert (done.returncode, done.stderr) == (0, "")
    return done.stdout


def test_the_environment_variable_protocol() -> None:
    """What a shell's script reads: bash one "type,value" a line, each space
    of a name after two backslashes (bash's ``read`` drops one); zsh type,
    value and help on lines of their own."""
    assert _protocol("bash", "warcouncil orders akragas --card 'order two u", 4) == (
        "plain,Order\\\\ Two\\\\ Units\\\\ Left\nplain,Order\\\\ Two\\\\ Units\\\\ Center\n"
        "plain,Order\\\\ Two\\\\ Units\\\\ Right\n")
    assert _protocol("bash", "warcouncil pl", 1) == "plain,plan\n"
    assert _protocol("zsh", "warcouncil orders akragas --card 'line", 4) == "plain\nLine Command\n_\n"


@pytest.mark.skipif(shutil.which("bash") is None, reason="no bash")
def test_bash_puts_a_card_name_in_one_word(tmp_path) -> None:
    """click's bash script, sourced and run as bash runs it on <Tab>."""
    exe = tmp_path / "warcouncil"
    exe.write_text(f"#!/bin/sh\nexec {sys.executable} -m warcouncil \"$@\"\n", encoding="utf-8")
    exe.chmod(0o755)
    script = (
        'eval "$(_WARCOUNCIL_COMPLETE=bash_source warcouncil)"\n'
        "COMP_WORDS=(warcouncil orders akragas --card '\"Order Two U'); COMP_CWORD=4\n"
        "_warcouncil_completion warcouncil\n"
        "printf '[%s]\\n' \"${COMPREPLY[@]}\"\n"
    )
    env = {**os.environ, "PATH": f"{tmp_path}{os.pathsep}{os.environ['PATH']}"}
    done = subprocess.run(["bash", "-c", script], capture_output=True, text=True, env=env, timeout=120)
    assert done.stdout == ("[Order\\ Two\\ Units\\ Left]\n[Order\\ Two\\ Units\\ Center]\n"
                           "[Order\\ Two\\ Units\\ Right]\n"), done.stderr


def test_the_sourced_scripts() -> None:
    for shell, says in (("bash", "complete -o nosort -F _warcouncil_completion warcouncil"),
                        ("zsh", "compdef _warcouncil_completion warcouncil"),
                        ("fish", "complete --no-files --command warcouncil")):
        env = {**os.environ, cli.COMPLETE_VAR: f"{shell}_source"}
        done = subprocess.run([sys.executable, "-m", "warcouncil"], capture_output=True, text=True, env=env,
                              timeout=120)
        assert done.returncode == 0 and says in done.stdout, (shell, done.stdout)
