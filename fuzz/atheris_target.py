"""Coverage-guided fuzzing of warcouncil's readers with atheris (optional).

    pip install atheris                       # if it installs on this machine
    python fuzz/atheris_target.py -runs=100000 -max_len=4096 [CORPUS_DIR]

The first byte picks the reader: the rule-language parser and its static
checks, the YAML reader (``parse_yaml``), a scenario file, a turn file; the
rest is the text. A ``WarcouncilError`` is an answer (bad input, exit 2);
any other exception is a finding, which atheris reports with its input.
Without atheris the script says so and exits 0.
"""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

try:
    import atheris
except ImportError:  # pragma: no cover - optional
    atheris = None


def main(argv: list[str]) -> int:
    if atheris is None:
        print("atheris is not installed (pip install atheris): nothing to do")
        return 0
    with atheris.instrument_imports():
        from warcouncil.dsl.lint import lint
        from warcouncil.dsl.parser import parse_text
        from warcouncil.errors import WarcouncilError
        from warcouncil.kernel.scenario import load_scenario, parse_yaml
        from warcouncil.kernel.turn import load_turn

    folder = Path(tempfile.mkdtemp(prefix="warcouncil-atheris-"))
    rules, yaml_file = folder / "house.wc", folder / "file.yaml"

    def one(data: bytes) -> None:
        if not data:
            return
        kind, text = data[0] % 4, data[1:].decode("utf-8", "replace")
        try:
            if kind == 0:
                parse_text(text, "fuzz.wc")
                rules.write_text(text, encoding="utf-8")
                lint([rules], "cca")
            elif kind == 1:
                parse_yaml(text, "fuzz.yaml")
            elif kind == 2:
                yaml_file.write_text(text, encoding="utf-8")
                load_scenario(str(yaml_file))
            else:
                yaml_file.write_text(text, encoding="utf-8")
                load_turn(str(yaml_file))
        except WarcouncilError:
            pass

    os.environ.setdefault("WARCOUNCIL_DEBUG", "1")
    atheris.Setup(argv, one)
    atheris.Fuzz()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
