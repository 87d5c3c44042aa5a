"""Generators of hostile input for warcouncil: rule files (grammar-aware),
scenario and turn files (structure-aware YAML) and argument lists.

Each generator takes a ``random.Random``-like object (``choice``,
``randint``, ``random``): ``fuzz/run.py`` gives it a seeded ``Random`` (fast,
reproducible by seed), the test suite gives it hypothesis's
``st.randoms()`` (shrinkable), see ``STRATEGIES``.
"""

from __future__ import annotations

import functools
import string

import yaml

# ------------------------------------------------------------------ vocabulary


@functools.lru_cache(maxsize=1)
def vocabulary() -> dict:
    """Names of the shipped cca pack and the Akragas scenario (read once)."""
    from warcouncil.dsl.pack import load_pack
    from warcouncil.kernel.scenario import load_scenario

    pack = load_pack("cca")
    sc = load_scenario("akragas")
    vocab = pack.vocabulary
    return {
        "constants": sorted(vocab.constants),
        "functions": sorted((n, b.arity) for n, b in vocab.items() if b.params is not None),
        "attributes": sorted(set(vocab.attributes) | pack.unit_attributes()),
        "symbols": sorted(pack.symbols()),
        "defines": sorted((d.id, name, d.params) for name, d in pack.defines.items()),
        "rules": sorted(pack.rules),
        "cards": sorted(pack.cards),
        "units": sorted(pack.units),
        "unit_attrs": {u.name: list(u.attrs) for u in pack.units.values()},
        "pieces": sorted(p.id for p in list(sc.units) + list(sc.leaders)),
        "sides": sorted(sc.sides),
        "terrains": sorted(pack.terrains),
    }


WEIRD_TEXT = ["", " ", "\t", "\n", "\x00", "é", "—", "💥", "{", "}", "{p}", "{p.__class__}", "{p:>99999}",
              "{0}", "%s", "\\", '"', "'", "#", "../../etc/passwd", "/dev/zero", "a" * 300, "\u202e", "s1 ",
              " s1", "s1\n", "NaN", "inf", "-0", "1e309", "9" * 5000, "null", "~", "true", "no", "0x1f"]


def weird(rng) -> str:
    return rng.choice(WEIRD_TEXT)


def name(rng) -> str:
    v = vocabulary()
    pick = rng.random()
    if pick < 0.2:
        return rng.choice(v["constants"])
    if pick < 0.4:
        return rng.choice(v["symbols"])
    if pick < 0.55:
        return rng.choice([n for _, n, p in v["defines"] if not p] or ["x"])
    if pick < 0.7:
        return rng.choice(["p", "q", "u", "it", "m", "card", "side", "x"])
    return "".join(rng.choice(string.ascii_lowercase + "_") for _ in range(rng.randint(1, 8)))


# ------------------------------------------------------------------ rule files


def expr(rng, depth: int = 0) -> str:
    """A rule-language expression, mostly well formed, sometimes not."""
    v = vocabulary()
    if depth > 4 or rng.random() < 0.25:
        leaf = rng.random()
        if leaf < 0.3:
            return name(rng)
        if leaf < 0.5:
            return str(rng.choice([0, 1, 2, 3, 6, -1, 10 ** rng.randint(1, 30), rng.randint(0, 99)]))
        if leaf < 0.6:
            return rng.choice(["true", "false", "none"])
        if leaf < 0.7:
            return '"' + rng.choice(v["cards"] + ["x", "{p}", ""]).replace('"', "") + '"'
        if leaf < 0.85:
            return f"{name(rng)}.{rng.choice(v['attributes'])}"
        return rng.choice(["1.5", "1e5", "0.0", "3.", ".5"])
    d = depth + 1
    kind = rng.randint(0, 13)
    if kind == 0:
        fn, arity = rng.choice(v["functions"])
        n = arity if rng.random() < 0.85 else rng.randint(0, 3)
        return f"{fn}({', '.join(expr(rng, d) for _ in range(n))})"
    if kind == 1:
        _, fn, params = rng.choice(v["defines"])
        n = len(params) if rng.random() < 0.85 else rng.randint(0, 3)
        return f"{fn}({', '.join(expr(rng, d) for _ in range(n))})" if params or n else fn
    if kind == 2:
        return f"{expr(rng, d)} {rng.choice(['==', '!=', '<', '<=', '>', '>='])} {expr(rng, d)}"
    if kind == 3:
        return f"{expr(rng, d)} {rng.choice(['+', '-', '*', '/'])} {expr(rng, d)}"
    if kind == 4:
        return f"{expr(rng, d)} {rng.choice(['and', 'or', 'implies'])} {expr(rng, d)}"
    if kind == 5:
        return f"not {expr(rng, d)}"
    if kind == 6:
        var = rng.choice(["p", "q", "u", "x"])
        return f"({rng.choice(['forall', 'exists'])} {var} in {expr(rng, d)}: {expr(rng, d)})"
    if kind == 7:
        return f"{{{rng.choice(['p', 'u'])} in {expr(rng, d)} where {expr(rng, d)}}}"
    if kind == 8:
        return f"if {expr(rng, d)} then {expr(rng, d)} else {expr(rng, d)}"
    if kind == 9:
        return f"{expr(rng, d)} {rng.choice(['in', 'not in'])} {expr(rng, d)}"
    if kind == 10:
        return f"-{expr(rng, d)}"
    if kind == 11:
        return f"(the p in {expr(rng, d)} where {expr(rng, d)})"
    if kind == 12:  # hostile shapes
        n = rng.choice([10, 70, 300, 1200])
        shape = rng.randint(0, 4)
        if shape == 0:
            return "not " * n + "true"
        if shape == 1:
            return "1" + " + (1" * n + ")" * n
        if shape == 2:
            return "".join(f"forall x{i} in pieces: " for i in range(n)) + "true"
        if shape == 3:
            return " and ".join(["orders(p) <= 1"] * n)
        return "(" * n + "1" + ")" * n
    return f"({expr(rng, d)})"


def statement(rng, i: int) -> str:
    v = vocabulary()
    kind = rng.randint(0, 9)
    if kind <= 2:
        msg = f'\n    message "{rng.choice(["{p} bad", "{pieces}", "{q}", "{p.__init__}", "{{x}}", "x"])}"' \
            if rng.random() < 0.3 else ""
        body = expr(rng)
        if rng.random() < 0.5:
            body = f"forall p in {rng.choice(['ordered', 'pieces', 'units', 'moves'])}: {body}"
        return f"rule house.r{i}\n    require {body}{msg}\n"
    if kind <= 4:
        params = rng.choice(["", "(p)", "(p, q)", "(x)"])
        fname = rng.choice([f"d{i}", name(rng)])
        return f"define house.d{i}\n    {fname}{params} := {expr(rng)}\n"
    if kind == 5:
        did, fname, params = rng.choice(v["defines"])
        ps = f"({', '.join(params)})" if params else ""
        return f"replace define {did}\n    {fname}{ps} := {expr(rng)}\n"
    if kind == 6:
        target = rng.choice(v["rules"] + [d for d, _, _ in v["defines"]] + ["house.none"])
        return f"remove {rng.choice(['rule', 'define'])} {target}\n"
    if kind == 7:
        unit = rng.choice(v["units"])
        attrs = []
        for k, val in v["unit_attrs"][unit]:
            if rng.random() < 0.2:
                val = rng.choice(['"x"', "true", "light", "-3", "99999999999999999999", "1.5"])
            elif isinstance(val, bool):
                val = "true" if val else "false"
            attrs.append(f"{k} = {val}")
        return f"replace unit {unit} {{ {'; '.join(attrs)} }}\n"
    if kind == 8:
        card = rng.choice(v["cards"] + ["New Card"])
        rep = "replace " if card in v["cards"] else ""
        return (f'{rep}card "{card}" {{\n    copies = {rng.choice([1, 2, 0, 99])}  category = section\n'
                f'    orders: up to {expr(rng, 3)} pieces where {expr(rng, 2)}\n}}\n')
    if rng.random() < 0.5:
        return f'document d{i} "{rng.choice(["/dev/zero", "nosuch.txt", "../x", "cca.md"])}"\n'
    return f"rule house.ok{i}\n    require forall p in ordered: orders(p) <= {rng.randint(0, 3)}\n"


def mutate(rng, text: str) -> str:
    """A few byte-level changes: cut, duplicate, insert."""
    for _ in range(rng.randint(1, 3)):
        if not text:
            return weird(rng)
        i = rng.randint(0, len(text) - 1)
        j = min(len(text), i + rng.randint(1, 20))
        op = rng.randint(0, 3)
        if op == 0:
            text = text[:i] + text[j:]
        elif op == 1:
            text = text[:j] + text[i:j] * rng.randint(1, 50) + text[j:]
        elif op == 2:
            text = text[:i] + weird(rng) + text[i:]
        else:
            text = text[:i] + rng.choice(["(", ")", ":", "{", "}", '"', "#", ":=", "\n", ";", ","]) + text[i:]
    return text


def rule_file(rng) -> str:
    text = "".join(statement(rng, i) for i in range(rng.randint(1, 3)))
    if rng.random() < 0.15:
        text = mutate(rng, text)
    return text


# ------------------------------------------------------------------ YAML


def yaml_value(rng, depth: int = 0):
    pick = rng.randint(0, 12)
    if pick == 0:
        return rng.randint(-3, 20)
    if pick == 1:
        return rng.choice([2 ** 71, -1, 0, 1.5, float("inf"), True, False, None])
    if pick == 2:
        return weird(rng)
    if pick == 3:
        return [rng.randint(0, 12), rng.randint(0, 8)]
    if pick == 4:
        return rng.choice(vocabulary()["pieces"])
    if pick == 5 and depth < 3:
        return [yaml_value(rng, depth + 1) for _ in range(rng.randint(0, 3))]
    if pick == 6 and depth < 3:
        return {str(yaml_value(rng, depth + 1))[:20]: yaml_value(rng, depth + 1) for _ in range(rng.randint(0, 3))}
    if pick == 7:
        return rng.choice(vocabulary()["cards"])
    if pick == 8:
        return rng.choice(["north", "south", "west", "east", "left", "", "center"])
    if pick == 9:
        return rng.choice(vocabulary()["sides"])
    return rng.choice(vocabulary()["units"] + vocabulary()["terrains"])


@functools.lru_cache(maxsize=None)
def _example(rel: str):
    """A file shipped under ``warcouncil/examples`` (read once; never changed)."""
    from pathlib import Path

    import warcouncil

    return yaml.safe_load((Path(warcouncil.__file__).parent / "examples" / rel).read_text(encoding="utf-8"))


def _perturb(rng, data, rate: float | None = None):
    """The structure with some values replaced, keys dropped or added (a
    rate per case: often none or few, so that deeper code runs too)."""
    if rate is None:
        rate = rng.choice([0.0, 0.0, 0.005, 0.02, 0.05, 0.12])
    if isinstance(data, dict):
        out = {}
        for k, val in data.items():
            r = rng.random()
            if r < rate * 0.4:
                continue
            out[k] = yaml_value(rng) if r < rate else _perturb(rng, val, rate)
        if rng.random() < rate:
            out[weird(rng) or "extra"] = yaml_value(rng)
        return out
    if isinstance(data, list):
        items = [yaml_value(rng) if rng.random() < rate else _perturb(rng, x, rate) for x in data
                 if rng.random() > rate * 0.5]
        if items and rng.random() < rate * 2:
            items.append(rng.choice(items))  # a duplicate
        return items
    return data


def _dump(rng, data) -> str:
    try:
        text = yaml.safe_dump(data, allow_unicode=True, sort_keys=False, default_flow_style=rng.random() < 0.5)
    except yaml.YAMLError:
        text = str(data)
    r = rng.random()
    if r < 0.04:  # anchors and aliases: a small bomb
        text = ("a: &a [x, x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]\n"
                "c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]\nd: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c, *c]\n"
                "e: [*d, *d, *d, *d, *d, *d, *d, *d, *d, *d]\n" + text)
    elif r < 0.06:
        text = "[" * rng.choice([10, 100, 70, 5000]) + text
    elif r < 0.16:
        text = mutate(rng, text)
    return text


def scenario_yaml(rng) -> str:
    return _dump(rng, _perturb(rng, _example("cca/akragas.yaml")))


def turn_yaml(rng) -> str:
    v = vocabulary()
    pieces = v["pieces"]
    data = {
        "card": rng.choice(v["cards"]),
        "orders": [rng.choice(pieces) for _ in range(rng.randint(0, 4))],
        "moves": [{"piece": rng.choice(pieces), "to": [rng.randint(0, 12), rng.randint(0, 8)]}
                  for _ in range(rng.randint(0, 3))],
    }
    if rng.random() < 0.4:
        data["battles"] = [{"piece": rng.choice(pieces), "target": rng.choice(pieces)}]
    for key in ("roll", "copies", "command", "side", "second_moves"):
        if rng.random() < 0.1:
            data[key] = yaml_value(rng)
    if rng.random() < 0.2:
        m = {"piece": rng.choice(pieces), "path": [[rng.randint(-1, 13), rng.randint(-1, 9)]
                                                    for _ in range(rng.randint(0, 4))]}
        data["moves"].append(m)
    return _dump(rng, _perturb(rng, data))


# ------------------------------------------------------------------ arguments


def argv(rng, files: dict) -> list[str]:
    """An argument list; ``files`` maps "rules", "scenario", "turn" to paths
    of generated files (and "missing" to a path that does not exist)."""
    v = vocabulary()
    verb = rng.choice(["orders", "orders", "moves", "turns", "check", "check", "cards", "lint", "lint", "diff",
                       "odds", "activations", "nosuch", "--help", "--version"])
    scen = rng.choice(["akragas", "akragas", files["scenario"], "practice_field", files["missing"], "", ".",
                       "/dev/null", files["turn"]])
    args = [verb]
    if verb == "lint":
        args.append(rng.choice([files["rules"], files["rules"], "cca", files["missing"], "/dev/zero"]))
        if rng.random() < 0.7:
            args += ["--over", rng.choice(["cca", "cca", "ccm", "core", "", files["rules"]])]
        if rng.random() < 0.1:
            args.append("--coverage")
    elif verb not in ("nosuch", "--help", "--version"):
        args.append(scen)
        if verb == "check":
            args.append(rng.choice([files["turn"], files["turn"], files["missing"], "/dev/zero", files["scenario"]]))
        if verb in ("orders", "moves", "turns", "diff") and rng.random() < 0.9:
            args += ["--card", rng.choice(v["cards"] + ["", "order two units left", "Nope", weird(rng)])]
        if verb == "turns" or (verb == "orders" and "I Am Spartacus" in args):
            # a whole Out Flanked turn runs 20-30 s, every roll of I Am Spartacus lists 232,750 sets
            # (a minute): answers that large are not hangs
            args += ["--limit", str(rng.randint(0, 30))]
        elif rng.random() < 0.3:
            args += ["--limit", rng.choice(["0", "1", "5", "-1", "x", "99999999999999999999"])]
        if verb in ("moves", "diff") or rng.random() < 0.1:
            for _ in range(rng.randint(0, 3)):
                args += ["--order", rng.choice(v["pieces"] + ["", "nosuch", weird(rng)])]
        for opt, values in (("--side", v["sides"] + ["", " ", "blue"]),
                            ("--roll", ["light,helmet", "light=2", "x", "", "light=999999999999", "flag,flag,flag"]),
                            ("--copies", v["cards"][:5] + ["", "Counter Attack"]),
                            ("--command", ["0", "3", "-1", "99999", "x"])):
            if rng.random() < 0.12:
                args += [opt, rng.choice(values)]
        if rng.random() < 0.4:
            args += ["--rules", files["rules"]]
        if rng.random() < 0.05:
            args += ["--rules", rng.choice([files["missing"], "/dev/zero", files["scenario"]])]
        if verb == "orders" and rng.random() < 0.3:
            args.append(rng.choice(["--count", "--engine", "--json"]))
            if args[-1] == "--engine":
                args.append(rng.choice(["fast", "csp", "x"]))
    if rng.random() < 0.3:
        args.append("--json")
    if rng.random() < 0.03:
        args.append(rng.choice(["--nosuch", weird(rng), "-h"]))
    return args


# ------------------------------------------------------------------ the other systems
#
# Warmaster (a measured table) and the square-grid game read files of their
# own shapes: their cases perturb the shipped example and its logs, and ask
# the verbs those systems answer.

#: the shipped example of each system (by its name), and the file each verb
#: reads beside it
_SYSTEM_FILES = {
    "ridgeway": ("warmaster/ridgeway.yaml", {
        "check": ("warmaster/logs/turn.yaml",), "orders": ("warmaster/logs/turn.yaml",),
        "odds": ("warmaster/logs/plan.yaml",), "plan": ("warmaster/logs/wants.yaml",)}),
    "alesia": ("grid-ancients/alesia.yaml", {
        "check": ("grid-ancients/alesia/turn.yaml", "grid-ancients/alesia/illegal-turn.yaml"),
        "odds": ("grid-ancients/alesia/combat.yaml",), "activations": ("grid-ancients/alesia/turn.yaml",)}),
}


def _system_argv(rng, name: str, verb: str, files: dict) -> list[str]:
    scen = rng.choice([name, name, files["scenario"], files["scenario"], files["scenario"],
                       rng.choice([files["missing"], "akragas"])])
    args = [verb, scen]
    if verb in ("odds", "plan", "check"):
        args.append(rng.choice([files["turn"]] * 8 + [files["missing"], files["scenario"]]))
    if verb == "orders" and rng.random() < 0.5:
        args += ["--after", rng.choice([files["turn"]] * 4 + [files["missing"]])]
    if verb in ("orders", "activations"):
        for opt, values in (("--side", ["red", "blue", "romans", "gauls", "", "nosuch"]),
                            ("--limit", ["0", "1", "5", "-1", "x"]), ("--svg", [files["svg"], files["missing"]])):
            if rng.random() < 0.2:
                args += [opt, rng.choice(values)]
        if verb == "orders" and rng.random() < 0.15:
            args.append("--count")
    if verb == "moves":
        args += ["--card", "Nope"]
    if rng.random() < 0.1:
        args += ["--rules", files["rules"]]
    if rng.random() < 0.4:
        args.append("--json")
    return args


def system_case(rng, name: str) -> dict:
    """A case of a system with files of its own shape (``_SYSTEM_FILES``):
    mostly a verb it answers with the file that verb reads, perturbed."""
    files = {"rules": "RULES", "scenario": "SCENARIO", "turn": "TURN", "missing": "MISSING", "svg": "SVG"}
    scenario, by_verb = _SYSTEM_FILES[name]
    verb = rng.choice(list(by_verb) * 6 + ["moves", "activations" if name == "ridgeway" else "plan"])
    logs = by_verb.get(verb) or rng.choice(list(by_verb.values()))
    log = rng.choice(logs) if rng.random() < 0.85 else rng.choice(rng.choice(list(by_verb.values())))
    return {"rules": rule_file(rng), "scenario": _dump(rng, _perturb(rng, _example(scenario))),
            "turn": _dump(rng, _perturb(rng, _example(log))), "argv": _system_argv(rng, name, verb, files)}


def case(rng) -> dict:
    """One fuzz case: the three files' texts and an argument list (with the
    placeholders RULES, SCENARIO, TURN, MISSING, SVG for their paths): half
    of them Commands & Colors, a quarter each Warmaster and the square-grid
    game."""
    r = rng.random()
    if r < 0.25:
        return system_case(rng, "ridgeway")
    if r < 0.5:
        return system_case(rng, "alesia")
    files = {"rules": "RULES", "scenario": "SCENARIO", "turn": "TURN", "missing": "MISSING"}
    return {"rules": rule_file(rng), "scenario": scenario_yaml(rng) if rng.random() < 0.5 else None,
            "turn": turn_yaml(rng), "argv": argv(rng, files)}
