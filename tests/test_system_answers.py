"""A system that reads its own scenario shape and answers whole verbs
(``System.read_scenario``, ``System.answers_itself``, ``Engine.answer``):
the command line only prints what the engine answers, with its exit code.
The toy pack is Tiny Grid's (``tests/tinygrid``) under its own name."""

from __future__ import annotations

import json
import shutil
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent

from conftest import run_cli  # noqa: E402
from warcouncil.errors import WarcouncilError  # noqa: E402
from warcouncil.kernel.engine import Engine  # noqa: E402
from warcouncil.kernel.system import Answer, System  # noqa: E402


@dataclass(frozen=True)
class ToyScenario:
    name: str
    path: str
    system: str
    sides: dict
    to_move: str
    rules: tuple = ()
    stones: int = 0


def _read(data, file):
    stones = data.get("stones")
    if not isinstance(stones, int):
        raise WarcouncilError("stones must be a whole number", data.value_where.get("stones", data.where))
    return ToyScenario("toy", file, data["system"], {"a": None, "b": None}, "a", (), stones)


class ToyEngine(Engine):
    def _validate(self):
        pass

    def answer(self, verb, **options):
        n = self.scenario.stones
        if verb == "odds":
            return Answer({"stones": n, "path": Path(options["path"]).name}, f"{n} stones")
        return Answer({"legal": n % 2 == 0}, "even" if n % 2 == 0 else "odd", 0 if n % 2 == 0 else 1)


class Toy(System):
    name = "toy"
    title = "Toy"
    packs = ("tinyanswer",)
    verbs = frozenset({"odds", "check"})
    answers_itself = frozenset({"odds", "check"})
    engine = ToyEngine
    read_scenario = staticmethod(_read)


def _scenario(tmp_path, stones):
    pack = tmp_path / "tinyanswer"
    shutil.copytree(HERE / "tinygrid" / "pack", pack)
    head = pack / "00-pack.wc"
    head.write_text(head.read_text(encoding="utf-8").replace('pack tinygrid "Tiny Grid"', 'pack tinyanswer "Tiny Answer"'),
                    encoding="utf-8")
    sc = tmp_path / "toy.yaml"
    sc.write_text(f"system: tinyanswer\nstones: {stones}\n", encoding="utf-8")
    return sc


def test_the_system_reads_its_own_scenario(tmp_path):
    eng = Engine.load(str(_scenario(tmp_path, 4)))
    assert isinstance(eng, ToyEngine) and eng.scenario.stones == 4


def test_the_cli_prints_the_systems_answer_with_its_exit_code(tmp_path):
    sc = _scenario(tmp_path, 3)
    code, out, _ = run_cli("odds", sc, "plan.yaml", "--json")
    assert code == 0 and json.loads(out) == {"stones": 3, "path": "plan.yaml"}
    code, out, _ = run_cli("check", sc, "turn.yaml")
    assert code == 1 and out.strip() == "odd"


def test_its_reader_errors_are_bad_input(tmp_path):
    sc = _scenario(tmp_path, 0)
    sc.write_text("system: tinyanswer\nstones: many\n", encoding="utf-8")
    code, _, err = run_cli("odds", sc, "plan.yaml")
    assert code == 2 and "stones must be a whole number" in err and f"{sc}:2:" in err


def test_a_verb_it_does_not_answer_is_refused(tmp_path):
    code, _, err = run_cli("activations", _scenario(tmp_path, 2))
    assert code == 2 and "makes no sense" in err
