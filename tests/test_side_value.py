"""``Engine.side_value``: a one-parameter define of the pack, called with a
side on the scenario as it stands, seen from that side (how
``warcouncil.openspiel`` asks a user's ``objective``), on every family; and
``Engine.load_data``, a scenario given as data."""

from __future__ import annotations

import pytest
import yaml

from warcouncil.errors import WarcouncilError
from warcouncil.kernel.engine import Engine
from warcouncil.kernel.scenario import shipped_scenarios

COUNT = """define house.objective
    from house "ten per own unit, one per enemy unit"
    objective(s) := 10 * count(units) + count(enemy_units)
"""
PER_SIDE = 'define house.objective objective(s) := if s.name == "{0}" then 1 else 2\n'


@pytest.mark.parametrize("scenario,values", [
    ("akragas", {"syracusan": 132, "carthaginian": 132}),  # 12 units each
    ("practice_field", {"crown": 109, "barons": 100}),  # 10 and 9
    ("ridgeway", {"red": 63, "blue": 36}),  # 6 and 3
    ("alesia", {"romans": 65, "gauls": 56}),  # 6 and 5
])
def test_a_define_per_side_on_every_family(tmp_path, scenario, values):
    house = tmp_path / "house.wc"
    house.write_text(COUNT, encoding="utf-8")
    eng = Engine.load(scenario, [str(house)])
    assert {side: eng.side_value("objective", side) for side in values} == values
    first, second = values
    house.write_text(PER_SIDE.format(second), encoding="utf-8")
    eng = Engine.load(scenario, [str(house)])
    assert {side: eng.side_value("objective", side) for side in values} == {first: 2, second: 1}


def test_a_define_of_two_parameters_is_refused(tmp_path):
    house = tmp_path / "house.wc"
    house.write_text("define house.objective objective(s, t) := 1\n", encoding="utf-8")
    with pytest.raises(WarcouncilError) as e:
        Engine.load("akragas", [str(house)]).side_value("objective", "syracusan")
    assert e.value.message == "objective must take 1 argument (a side), not 2"
    assert (e.value.location.file, e.value.location.line) == (str(house), 1)
    with pytest.raises(WarcouncilError, match="^the rule pack has no define 'nothing'$"):
        Engine.load("akragas").side_value("nothing", "syracusan")


NEAR = "define house.objective objective(s) := count({{u in units where exists e in enemy_units: {0}}})\n"


@pytest.mark.parametrize("scenario,unit,to,near", [
    ("akragas", "s4", [5, 4], "distance(u.at, e.at) <= 3"),
    ("ridgeway", "r1", [30, 49], "gap(u, e) <= 1"),
    ("alesia", None, None, "distance(u.at, e.at) <= 5")])
def test_a_scenario_given_as_data_is_read_as_its_file_is(tmp_path, scenario, unit, to, near):
    house = tmp_path / "house.wc"
    house.write_text(NEAR.format(near), encoding="utf-8")
    file = str(shipped_scenarios()[scenario])
    data = yaml.safe_load(open(file, encoding="utf-8"))
    for u in data["units"]:
        if u["id"] == unit:
            u["at"] = to
    path = tmp_path / "moved.yaml"
    path.write_text(yaml.safe_dump(data), encoding="utf-8")
    given, read = Engine.load_data(data, file, [str(house)]), Engine.load(str(path), [str(house)])
    sides = list(read.scenario.sides)
    values = [given.side_value("objective", s) for s in sides]
    assert values == [read.side_value("objective", s) for s in sides]
    assert values != [Engine.load(file, [str(house)]).side_value("objective", s) for s in sides] or unit is None
