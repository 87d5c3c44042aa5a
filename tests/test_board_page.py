"""The board page (issue 29) in a real browser: Debian's Chromium, headless,
driven by Playwright's Python API (never a browser download), against
`warcouncil serve` started on a free loopback port.

For each family, on its shipped scenario: click a piece and see its marked
destinations equal the System's answers (`moves`, `orders`, `activations`
through the service, and `State.legal_actions()` in this process); apply a
legal action; then an illegal hand-made one, refused with its rule id and
quoted sentence; undo; play to the end of the turn, save the turn file and
`check` it (legal). Screenshots go to pytest's tmp_path (and to
$WARCOUNCIL_PAGE_SHOTS when set), to be looked at.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest
import yaml

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]
ROOT = Path(__file__).resolve().parent.parent


def _missing() -> str | None:
    if not os.access(CHROMIUM, os.X_OK):
        return f"the board page's browser tests need Debian's Chromium at {CHROMIUM} (apt-get install chromium)"
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "the board page's browser tests need playwright (pip install -e '.[browser]')"
    try:
        import fastapi  # noqa: F401
        import uvicorn  # noqa: F401
    except ImportError:
        return "the board page's browser tests need the serve extra (pip install -e '.[serve]')"
    return None


if _missing():
    pytest.skip(_missing(), allow_module_level=True)

from playwright.sync_api import sync_playwright  # noqa: E402

import warcouncil  # noqa: E402
from warcouncil import IllegalAction  # noqa: E402

# ------------------------------------------------------------------ the server and the browser

def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def server():
    port = _free_port()
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in (str(ROOT), os.environ.get("PYTHONPATH")) if p))
    proc = subprocess.Popen([sys.executable, "-m", "warcouncil", "serve", "--port", str(port), "--workers", "2"],
                            cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    try:
        while True:
            try:
                with urllib.request.urlopen(base + "/api/scenarios", timeout=5) as r:
                    r.read()
                break
            except OSError:
                if proc.poll() is not None:
                    raise RuntimeError("warcouncil serve ended: " + proc.stderr.read().decode()) from None
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.2)
        yield base
    finally:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


@pytest.fixture(scope="module")
def browser():
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            yield b
        finally:
            b.close()


@pytest.fixture
def board(browser, server, tmp_path):
    ctx = browser.new_context(viewport={"width": 1280, "height": 800}, accept_downloads=True)
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    try:
        yield Board(page, server, tmp_path)
    finally:
        ctx.close()
    assert errors == [], "the page raised: " + "; ".join(errors)


def api(base: str, verb: str, body: dict) -> dict:
    """A verb's --json answer, from the service (the command line's, byte for byte)."""
    req = urllib.request.Request(f"{base}/api/{verb}", json.dumps(body).encode(),
                                 {"content-type": "application/json"})
    with urllib.request.urlopen(req, timeout=60) as r:
        return json.loads(r.read())


def check(scenario: str, turn: Path) -> tuple[int, dict]:
    """`warcouncil check SCENARIO TURN --json`, at the command line."""
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in (str(ROOT), os.environ.get("PYTHONPATH")) if p))
    r = subprocess.run([sys.executable, "-m", "warcouncil", "check", scenario, str(turn), "--json"],
                       cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    return r.returncode, json.loads(r.stdout)


class Board:
    """The page, as a player uses it: every step waits for the service's answer."""

    def __init__(self, page, base: str, shots: Path) -> None:
        self.page, self.base, self.shots = page, base, shots

    # ---------------------------------------------------------- waiting
    def _answers(self) -> int:
        return self.page.evaluate("Number(document.body.dataset.answers)")

    def _after(self, do) -> None:
        n = self._answers()
        do()
        self.page.wait_for_function(
            f"Number(document.body.dataset.answers) > {n} && document.body.dataset.busy === '0'", timeout=60000)

    def open(self, name: str) -> None:
        self.page.goto(f"{self.base}/?scenario={name}")
        self.page.wait_for_function("window.warcouncil && window.warcouncil.last !== null "
                                    "&& document.body.dataset.busy === '0'", timeout=60000)

    # ---------------------------------------------------------- reading
    @property
    def actions(self) -> list[dict]:
        return self.page.evaluate("window.warcouncil.actions")

    @property
    def player(self) -> str:
        return self.page.evaluate("window.warcouncil.last.player")

    def marks(self) -> set[str]:
        return set(self.page.evaluate(
            "[...document.querySelectorAll('#board [data-legal-to]')].map(e => e.getAttribute('data-legal-to'))"))

    def targets(self) -> set[str]:
        return set(self.page.evaluate(
            "[...document.querySelectorAll('#board [data-legal-target]')]"
            ".map(e => e.getAttribute('data-legal-target'))"))

    def texts(self, selector: str) -> list[str]:
        return self.page.locator(selector).all_inner_texts()

    def at(self, piece: str) -> str:
        return self.page.get_attribute(f'#board [data-piece="{piece}"]:not([data-legal-to])', "data-at")

    def refusal(self) -> dict:
        box = self.page.locator("#refused")
        assert box.is_visible()
        return {"rules": box.locator(".rule").all_inner_texts(),
                "quotes": box.locator(".quote").all_inner_texts(),
                "measurements": box.locator(".measurements li").all_inner_texts()}

    def outcomes(self) -> list[tuple[str, str]]:
        rows = self.page.locator("#outcomes tbody tr")
        return [(r.locator("td").nth(0).inner_text(), r.locator(".p").inner_text()) for r in rows.all()]

    def odds(self, action: str) -> list[list[str]]:
        """The distributions shown under the selected piece's action worded ``action``."""
        return self.page.evaluate("""(text) => [...document.querySelectorAll('#piece-actions li')]
            .filter((li) => li.querySelector('button').textContent === text)
            .flatMap((li) => [...li.querySelectorAll('.odds-line')]
                .map((d) => [...d.children].map((c) => c.textContent)))""", action)

    def state(self, scenario: str):
        """The page's turn replayed in this process (the game interface)."""
        state = warcouncil.load_game(scenario).new_state()
        for a in self.actions:
            state.apply(a)
        return state

    # ---------------------------------------------------------- doing
    def piece(self, pid: str) -> None:
        """Click a piece, on its drawn shape (its own labels may lie over it: forced)."""
        shape = self.page.locator(f'#board [data-piece="{pid}"]:not([data-legal-to])').first \
            .locator("path, rect, polygon, circle").first
        self._after(lambda: shape.click(force=True))

    def mark(self, key: str) -> None:
        """Click the mark of a destination (its dot, not the line to it)."""
        mark = self.page.locator(f'#board [data-legal-to="{key}"]').first
        dot = mark.locator("circle, rect, polygon, path")
        self._after((dot.first if dot.count() else mark).click)

    def hex(self, key: str) -> None:
        self._after(lambda: self.page.locator(f'#board polygon[data-hex="{key}"]').click())

    def table_point(self, x: float, y: float) -> None:
        """Click the Warmaster table at (x, y) cm (8 px a cm, y to the north)."""
        sx, sy = self.page.evaluate("""([x, y]) => {
            const svg = document.querySelector('#board svg'), t = svg.querySelector('rect.table');
            const p = new DOMPoint(x * 8, Number(t.getAttribute('height')) - y * 8).matrixTransform(svg.getScreenCTM());
            return [p.x, p.y]; }""", [x, y])
        self._after(lambda: self.page.mouse.click(sx, sy))

    def square(self, c: int, r: int) -> None:
        """Click the middle of the grid's square (c, r) (56 px a square)."""
        sx, sy = self.page.evaluate("""([c, r]) => {
            const svg = document.querySelector('#board svg');
            const p = new DOMPoint((c + 0.5) * 56, (r + 0.5) * 56).matrixTransform(svg.getScreenCTM());
            return [p.x, p.y]; }""", [c, r])
        self._after(lambda: self.page.mouse.click(sx, sy))

    def action(self, text: str, where: str = "#play") -> None:
        """Click the button of the action worded ``text``."""
        button = self.page.locator(f"{where} button.action").filter(has_text=re.compile("^" + re.escape(text) + "$"))
        self._after(button.first.click)

    def click(self, selector: str) -> None:
        self._after(lambda: self.page.click(selector))

    def enter_roll(self, text: str) -> None:
        self.page.fill("#rolled", text)
        self._after(lambda: self.page.click("#enter-roll"))

    def save(self, button: str, name: str) -> Path:
        with self.page.expect_download() as d:
            self.page.click(button)
        path = self.shots / name
        d.value.save_as(path)
        return path

    def shot(self, name: str) -> Path:
        path = self.shots / f"{name}.png"
        self.page.screenshot(path=str(path))
        extra = os.environ.get("WARCOUNCIL_PAGE_SHOTS")
        if extra:
            os.makedirs(extra, exist_ok=True)
            shutil.copy(path, os.path.join(extra, path.name))
        return path


def _violations(state, action: dict) -> list[dict]:
    with pytest.raises(IllegalAction) as e:
        state.apply(action)
    return e.value.violations


def _end_and_check(board: Board, scenario: str, end_text: str) -> None:
    """Play `end_text`, then save the turn file and the next scenario and check them."""
    board.action(end_text)
    assert board.player == "terminal"
    assert board.page.inner_text("#player").startswith("The turn is over")
    state = board.state(scenario)
    turn = board.save("#save-turn", f"{scenario}-turn.yaml")
    assert yaml.safe_load(turn.read_text()) == state.log()
    code, answer = check(scenario, turn)
    assert (code, answer["legal"], answer["violations"]) == (0, True, [])
    after = board.save("#save-next", f"{scenario}-next.yaml")
    assert yaml.safe_load(after.read_text()) == state.scenario_after()


# ------------------------------------------------------------------ Commands & Colors: Ancients

def test_akragas(board, server):
    board.open("akragas")
    state = board.state("akragas")
    # the card choice: every card of the deck, as the game lists them
    assert board.texts("#other-actions button") == [a["text"] for a in state.legal_actions()]
    board.action("card: Order Three Units Center")
    board.action("order s4 and s6")
    assert [a["text"] for a in board.actions] == ["card: Order Three Units Center", "order s4 and s6"]

    board.piece("s6")
    moves = api(server, "moves", {"scenario": "akragas", "card": "Order Three Units Center", "order": ["s4", "s6"]})
    assert board.marks() == {f"{c},{r}" for c, r in (m["to"] for m in moves["moves"]["s6"])} \
        == {"7,6", "8,6", "7,8", "8,8"}
    state = board.state("akragas")
    assert board.texts("#piece-actions button") == [a["text"] for a in state.legal_actions() if a.get("piece") == "s6"]
    board.shot("akragas-selected")

    board.mark("7,6")  # a legal move
    assert board.actions[-1] == {"kind": "move", "piece": "s6", "to": [7, 6], "text": "heavy infantry s6 at 7,7 to 7,6"}
    assert board.at("s6") == "7,6"

    board.piece("s4")
    board.hex("4,3")  # a hand-made move, far beyond its reach
    refused = board.refusal()
    expected = _violations(board.state("akragas"), {"kind": "move", "piece": "s4", "to": [4, 3]})
    assert refused["rules"] == [v["rule"] for v in expected] == ["cca.move.unit-allowance"]
    assert refused["quotes"] == [f"“{v['quote']}”" for v in expected] \
        == ["“Heavy infantry units may move one hex and battle.”"]
    assert len(board.actions) == 3
    board.shot("akragas-refused")

    board.click("#undo")
    assert [a["text"] for a in board.actions] == ["card: Order Three Units Center", "order s4 and s6"]
    assert board.at("s6") == "7,7"
    board.piece("s6")
    board.action("heavy infantry s6 at 7,7 to 8,6", "#piece-actions")
    assert board.at("s6") == "8,6"
    _end_and_check(board, "akragas", "end the turn")
    board.shot("akragas-over")


# ------------------------------------------------------------------ Commands & Colors: Medieval

def test_practice_field(board, server):
    board.open("practice_field")
    # a card that rolls: the outcomes with their exact odds, entered by hand
    board.action("card: Rally")
    assert board.player == "chance"
    state = board.state("practice_field")
    assert board.outcomes() == [(a["text"], str(p)) for a, p in state.chance_outcomes()]
    assert len(board.outcomes()) == 126
    board.shot("practice_field-dice")
    board.enter_roll("light, helmet, light, light, light")
    assert board.actions[-1]["roll"] == {"light": 4, "medium": 0, "heavy": 0, "helmet": 1}
    board.click("#undo")
    board.click("#roll")  # random, by the odds: one of the outcomes
    assert board.actions[-1]["text"] in {a["text"] for a, _ in state.chance_outcomes()}
    board.click("#undo")
    board.click("#undo")
    assert board.actions == []

    board.action("card: Mounted Charge")
    board.action("order c7 and c8")
    board.piece("c7")
    moves = api(server, "moves", {"scenario": "practice_field", "card": "Mounted Charge", "order": ["c7", "c8"]})
    want = {f"{c},{r}" for c, r in (m["to"] for m in moves["moves"]["c7"])}
    assert board.marks() == want
    assert len(want) == 21
    state = board.state("practice_field")
    assert want == {f"{c},{r}" for c, r in (a["to"] for a in state.legal_actions() if a.get("piece") == "c7")}

    board.mark("9,7")
    assert board.actions[-1]["to"] == [9, 7] and board.at("c7") == "9,7"
    board.piece("c8")
    board.hex("2,2")
    expected = _violations(board.state("practice_field"), {"kind": "move", "piece": "c8", "to": [2, 2]})
    refused = board.refusal()
    assert refused["rules"] == [v["rule"] for v in expected] and refused["rules"]
    assert refused["quotes"] == [f"“{v['quote']}”" for v in expected if v.get("quote")]
    board.click("#undo")
    assert board.at("c7") == "9,9"
    _end_and_check(board, "practice_field", "end the turn")


# ------------------------------------------------------------------ Warmaster

def test_ridgeway(board, server):
    board.open("ridgeway")
    # the orders that may be attempted: by, units, target, p and penalties, as `orders` gives them
    orders = api(server, "orders", {"scenario": "ridgeway"})["options"]
    rows = board.page.locator("#family-notes table.orders tr.order").all()
    pens = board.texts("#family-notes table.orders tr.penalties")
    assert [tuple(r.locator("td").all_inner_texts()[:4]) for r in rows] == [
        (o["character"], "+".join(o["units"]), f"≤{o['target']}", o["p"]) for o in orders]
    # (each penalty with its measurements, from the drawing: dropped here to compare with `orders`)
    assert [re.sub(r" \([^()]*\)", "", p) for p in pens] == [
        "penalties: " + (", ".join(f"{k} -{v}" for k, v in o["penalties"].items() if v) or "none")
        + (f" · blunder {o['blunder']}" if o["blunder"] != "0" else "") for o in orders]
    assert len(orders) == 19
    assert pens[0] == "penalties: distance -1 (gen is 31.8 cm from r1), enemy -1 (b1 is 15 cm from r1)"
    assert pens[5] == ("penalties: distance -1 (gen is 31.8 cm from r1; gen is 25.1 cm from r2), "
                       "enemy -1 (b1 is 15 cm from r1; b1 is 15 cm from r2)")
    board.shot("ridgeway-start")

    board.piece("r1")
    state = board.state("ridgeway")
    mine = [a for a in state.legal_actions() if "r1" in state.pieces_of(a)]
    assert board.texts("#piece-actions button") == [a["text"] for a in mine]
    initiative = [a for a in mine if a["kind"] == "initiative"]
    assert board.marks() == {",".join(f"{c:g}" for c in a["to"]) for a in initiative}
    assert len(board.marks()) == 8

    board.mark("30,50")  # r1 charges on initiative
    assert board.actions == [{"kind": "initiative", "unit": "r1", "action": "charge", "to": [30, 50],
                              "text": "r1 charges to 30,50 on initiative"}]

    board.piece("gen")
    board.table_point(115, 75)  # a hand-made character move, beyond 60 cm
    expected = _violations(board.state("ridgeway"), {"kind": "character_move", "piece": "gen", "to": [115, 75]})
    refused = board.refusal()
    assert refused["rules"] == [v["rule"] for v in expected]
    assert "wm.character-60cm" in refused["rules"]
    assert "“Characters move once in the Characters sub-phase and can move up to 60cm.”" in refused["quotes"]
    assert refused["measurements"] == [m for v in expected for m in v.get("measurements", ())]
    board.shot("ridgeway-refused")
    board.click("#undo")
    assert board.actions == []

    # an order: the 2D6 with its odds, rolled at random, then entered by hand
    board.piece("r1")
    board.action("gen orders r1 (target 7, p 7/12)", "#piece-actions")
    state = board.state("ridgeway")
    assert board.outcomes() == [(a["text"], str(p)) for a, p in state.chance_outcomes()]
    assert [p for _, p in board.outcomes()] == ["1/36", "1/18", "1/12", "1/9", "5/36", "1/6", "5/36", "1/9",
                                                "1/12", "1/18", "1/36"]
    board.click("#roll")
    assert board.actions[-1]["text"] in {a["text"] for a, _ in state.chance_outcomes()}
    board.click("#undo")
    board.enter_roll("7")
    assert board.actions[-1]["text"] == "rolled 7: the order is given"
    board.piece("r1")
    assert len(board.actions) == 2
    state = board.state("ridgeway")
    moves = [a for a in state.legal_actions() if a["kind"] == "move" and a["to"] is not None]
    assert board.marks() == {",".join(f"{c:g}" for c in a["to"][0]) for a in moves}
    assert len(board.marks()) == 14
    # (what its marks stand for, and its staying put: the step under way concerns r1, issue 27)
    assert board.texts("#piece-actions button") == [a["text"] for a in state.legal_actions()]
    assert state.legal_actions()[0] == {"kind": "move", "to": None, "text": "r1 stays"}
    assert moves == state.legal_actions()[1:]
    board.mark("30,25")
    assert board.actions[-1]["to"] == [[30, 25]]
    board.shot("ridgeway-moved")
    _end_and_check(board, "ridgeway", "end the Command phase")


# ------------------------------------------------------------------ square-grid ancients

def test_alesia(board, server):
    board.open("alesia")
    # each unit's legal activations, as `activations` gives them
    act = api(server, "activations", {"scenario": "alesia"})["units"]
    rows = board.page.locator("#family-notes table.activations tbody tr").all()
    shown = {r.get_attribute("data-unit"): {b.split(" ")[0] for b in r.locator("td").nth(1).locator("button")
                                            .all_inner_texts()} for r in rows}
    assert shown == {u: {o for o, v in opts.items() if v["legal"]} for u, opts in act.items()
                     if any(v["legal"] for v in opts.values())}

    board.piece("r1")
    state = board.state("alesia")
    mine = [a for a in state.legal_actions() if a.get("unit") == "r1"]
    assert board.texts("#piece-actions button") == [a["text"] for a in mine]
    assert board.targets() == {a["target"] for a in mine if "target" in a} == {"g1", "g2", "g3", "g4", "g5"}
    # each activation's tests with their distributions, as `odds` gives them
    board.page.wait_for_function("document.querySelectorAll('#piece-actions .odds-line').length === 12")
    combat = api(server, "odds", {"scenario": "alesia", "test": {"test": "combat", "attacker": "r1", "defender": "g1"}})
    assert board.odds("formed infantry r1 at 4,5 attacks formed infantry g1 at 5,4") == [
        ["combat: "] + [f"{k.replace('_', ' ')} {p}" for k, p in combat["outcomes"].items()]]
    move = api(server, "odds", {"scenario": "alesia", "test": {"test": "movement", "unit": "r1"}})
    assert move["outcomes"] == {"failed": "1/6", "1": "1/3", "2": "1/3", "3": "1/6"}
    assert board.odds("formed infantry r1 at 4,5 moves") == [  # (JavaScript puts the numbers first)
        ["movement die: ", "1 1/3", "2 1/3", "3 1/6", "failed 1/6"]]

    # a unit it may attack: the actions against it, to choose from (no request yet)
    shape = board.page.locator('#board [data-piece="g1"]').first.locator("rect").first
    shape.click(force=True)
    assert board.texts("#choice button") == [a["text"] for a in mine if a.get("target") == "g1"] == [
        "formed infantry r1 at 4,5 attacks formed infantry g1 at 5,4",
        "formed infantry r1 at 4,5 charges formed infantry g1 at 5,4"]

    board.piece("r6")  # the bolt-thrower: no enemy to its front
    board.piece("g3")  # a hand-made attack on it
    expected = _violations(board.state("alesia"),
                           {"kind": "activate", "unit": "r6", "option": "combat", "target": "g3"})
    refused = board.refusal()
    assert refused["rules"] == [v["rule"] for v in expected] == ["ga.combat-needs-enemy-in-front"]
    assert refused["quotes"] == ["“if there is an enemy Unit immediately to their front.”"]
    assert board.actions == []
    board.shot("alesia-refused")

    board.piece("r1")
    board.action("formed infantry r1 at 4,5 moves", "#piece-actions")
    assert board.player == "chance"
    assert board.outcomes() == [(f"r1's Movement die: {f}", "1/6") for f in range(1, 7)]
    board.enter_roll("6")
    board.piece("r1")
    state = board.state("alesia")
    steps = [a for a in state.legal_actions() if a["kind"] == "step"]
    where = set()
    for a in steps:
        s = state.clone()
        s.apply(a)
        where.add(re.search(r'data-piece="r1"[^>]*data-at="([0-9]+,[0-9]+)"', s.svg()).group(1))
    assert board.marks() == where and where
    # (the steps and the halt concern r1: State.pieces_of names the unit under way, issue 27)
    assert board.texts("#piece-actions button") == [a["text"] for a in state.legal_actions()]
    assert [a["kind"] for a in state.legal_actions()] == ["step"] * len(steps) + ["halt"]
    board.page.wait_for_function("document.querySelectorAll('#piece-actions .odds-line').length === 1")
    test = api(server, "odds", {"scenario": "alesia",
                                "test": {"test": "manoeuvre", "unit": "r1", "manoeuvre": "about_face"}})
    assert board.odds("r1 about face") == [["manoeuvre test: "] + [f"{k} {p}" for k, p in test["outcomes"].items()]]
    board.shot("alesia-move")
    key = sorted(where)[0]
    board.mark(key)  # a legal step
    assert board.actions[-1] in [dict(a) for a in steps] and board.at("r1") == key
    board.click("#undo")
    assert [a["kind"] for a in board.actions] == ["activate", "dice"]
    board.action("r1 halts")
    while board.player == "chance":
        board.enter_roll("6")
    # a hand-made step: the cavalry's left front square clicked one square ahead, into the forest
    board.piece("r4")
    board.action("cavalry r4 at 8,6 moves", "#piece-actions")
    board.enter_roll("6")
    board.square(8, 5)
    expected = _violations(board.state("alesia"), {"kind": "step", "do": "forward"})
    refused = board.refusal()
    assert refused["rules"] == [v["rule"] for v in expected] == ["ga.cavalry-no-forest"]
    assert refused["quotes"] == ["“It cannot enter Forests.”"]
    board.square(7, 6)  # a drift to the left, listed: played
    assert board.actions[-1] == {"kind": "step", "do": "drift_left", "text": "r4 drift left"}
    board.enter_roll("6")  # its Manoeuvre Test
    assert board.texts("#piece-actions button") == ["r4 drift left", "r4 drift right", "r4 about face", "r4 halts"]
    board.action("r4 halts")
    while board.player == "chance":
        board.enter_roll("6")
    # after a finished activation, the odds are those of the position it left
    board.piece("r5")
    board.page.wait_for_function("document.querySelectorAll('#piece-actions .odds-line').length === 11")
    ended = board.state("alesia")
    ended.apply({"kind": "end"})
    move = api(server, "odds", {"scenario_text": yaml.safe_dump(ended.scenario_after()),
                                "test": {"test": "movement", "unit": "r5"}})
    assert board.odds("formed infantry r5 at 4,6 moves") == [
        ["movement die: "] + [f"{k} {p}" for k, p in sorted(move["outcomes"].items(),
                                                           key=lambda kp: kp[0] == "failed")]]
    board.shot("alesia-odds")
    _end_and_check(board, "alesia", "end the phase")


# ------------------------------------------------------------------ a scenario file, house rules, bad input

def test_file_and_house_rules(board, server):
    board.page.goto(board.base + "/")
    scenario = ROOT / "warcouncil" / "examples" / "cca" / "akragas.yaml"
    board._after(lambda: board.page.set_input_files("#scenario-file", str(scenario)))
    assert board.page.inner_text("#scenario-name") == "akragas.yaml — cca"
    house = (ROOT / "warcouncil" / "examples" / "house" / "light-cavalry-5.wc").read_text()
    board.page.click("#rules-box summary")
    board.page.fill("#rules", house)
    board.click("#restart")
    board.action("card: Order Two Units Left")
    board.action("order s1")
    board.piece("s1")  # light cavalry: 5 hexes under the house rule
    ask = {"scenario": "akragas", "card": "Order Two Units Left", "order": ["s1"]}
    with_rule = {f"{c},{r}" for c, r in
                 (m["to"] for m in api(server, "moves", {**ask, "rules": [house]})["moves"]["s1"])}
    without = {f"{c},{r}" for c, r in (m["to"] for m in api(server, "moves", ask)["moves"]["s1"])}
    assert board.marks() == with_rule and without < with_rule

    board.page.click("#rules-box summary")
    board.page.fill("#rules", "define house.x := (\n")
    board.click("#restart")  # a rule text that does not parse: the command line's one message
    assert board.page.inner_text("#error .msg") == "rules-1.wc:1:16: unexpected ':='"
    assert board.page.inner_text("#error .hint") == "expected a name"

    board.page.goto(board.base + "/?scenario=nowhere")
    board.page.wait_for_selector("#error:not([hidden])")
    assert board.page.inner_text("#error .msg") == 'no shipped scenario is called "nowhere"'
    assert board.page.inner_text("#error .hint") == "shipped: akragas, practice_field, alesia, ridgeway"
