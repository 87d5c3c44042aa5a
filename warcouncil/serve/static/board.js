/* warcouncil's board page: one turn played with the mouse through POST /api/game.
 *
 * The service is stateless: this page holds the scenario, the house rules and
 * the actions played so far, and every request replays them (GAMEAPI.md).
 * Undo drops the last action. The board is the endpoint's SVG, inline: each
 * piece an element with data-piece, each legal destination of the selected
 * piece an element with data-legal-to, each unit it may attack data-legal-target.
 * No build step and nothing from elsewhere: plain JavaScript.
 */
"use strict";

(() => {
  const $ = (id) => document.getElementById(id);

  /** what the page holds */
  const S = {
    scenario: null,      // a shipped scenario's name
    scenarioText: null,  // or the text of a loaded scenario file
    fileName: null,
    system: null,        // the pack: cca, ccm, warmaster, grid-ancients
    actions: [],         // the actions played so far (as the service words them)
    select: null,        // the selected piece's id
    last: null,          // the last answer of the service
    seq: 0,              // the number of the request under way
    rules: "",           // the house rules' text the turn is played under
  };
  window.warcouncil = S;  // (for the browser tests and the curious: read it, do not write it)

  // ------------------------------------------------------------ helpers
  function el(tag, attrs, ...children) {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (k === "onclick") e.addEventListener("click", v);
      else if (k === "text") e.textContent = v;
      else if (v !== null && v !== undefined && v !== false) e.setAttribute(k, v === true ? "" : v);
    }
    for (const c of children) if (c !== null && c !== undefined) e.append(c);
    return e;
  }

  /** the family of a pack: "cc", "warmaster" or "grid" */
  function family() {
    const sys = S.system || "";
    if (sys === "warmaster") return "warmaster";
    if (sys.startsWith("grid")) return "grid";
    if (sys === "cca" || sys === "ccm" || sys.startsWith("cc")) return "cc";
    // a loaded file naming a pack by another name: tell it from the actions
    const kinds = new Set([...(S.last?.legal_actions || []), ...S.actions].map((a) => a.kind));
    if (["attempt", "character_move", "initiative", "home_back"].some((k) => kinds.has(k))) return "warmaster";
    if (["activate", "step", "halt"].some((k) => kinds.has(k))) return "grid";
    return "cc";
  }

  /** an action as it is sent: without the service's "pieces" */
  function bare(action) {
    const out = {};
    for (const [k, v] of Object.entries(action)) if (k !== "pieces") out[k] = v;
    return out;
  }

  function fraction(p) {
    const [a, b] = String(p).split("/").map(Number);
    return b ? a / b : a;
  }

  function percent(p) {
    const v = fraction(p) * 100;
    return (v >= 10 || v === 0 ? v.toFixed(1) : v.toFixed(2)) + "%";
  }

  function download(name, text) {
    const url = URL.createObjectURL(new Blob([text], { type: "application/x-yaml" }));
    const a = el("a", { href: url, download: name });
    document.body.append(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 10000);
  }

  function baseName() {
    const n = S.scenario || (S.fileName || "scenario").replace(/\.(ya?ml|json)$/i, "");
    return n.replace(/[^A-Za-z0-9_-]+/g, "_");
  }

  // ------------------------------------------------------------ the service
  async function ask(apply) {
    if (S.scenario === null && S.scenarioText === null) return;
    const body = { actions: S.actions, apply: apply ? bare(apply) : null, select: S.select };
    if (S.scenarioText !== null) body.scenario_text = S.scenarioText;
    else body.scenario = S.scenario;
    body.rules = rulesNow();
    const seq = ++S.seq;
    busy(true);
    let status = 0, answer = null;
    try {
      const r = await fetch("/api/game", {
        method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body),
      });
      status = r.status;
      answer = await r.json().catch(() => null);
    } catch (e) {
      answer = { error: { message: `the service cannot be reached (${e.message})` } };
    }
    if (seq !== S.seq) return;  // (a later request is under way: its answer counts)
    try {
      if (status === 200 && answer && !answer.error) {
        S.last = answer;
        S.actions = answer.actions;
        showError(null);
        render(apply);
      } else {
        showError(answer && answer.error ? answer.error : { message: `the service answered ${status}` });
        if (!S.last) renderEmpty();
      }
    } finally {
      busy(false);
    }
  }

  function busy(on) {
    document.body.dataset.busy = on ? "1" : "0";
    if (!on) document.body.dataset.answers = String(Number(document.body.dataset.answers) + 1);
    $("status").classList.toggle("working", on);
    if (on) $("status").textContent = "asking the rules…";
  }

  function showError(err) {
    const box = $("error");
    if (!err) { box.hidden = true; box.textContent = ""; return; }
    const where = err.file ? `${err.file}${err.line ? ":" + err.line : ""}${err.column ? ":" + err.column : ""}: ` : "";
    box.replaceChildren(el("strong", { text: "Not accepted" }), el("div", { class: "msg", text: where + err.message }),
      err.hint ? el("div", { class: "hint", text: err.hint }) : null);
    box.hidden = false;
    $("status").textContent = "see the message";
  }

  // ------------------------------------------------------------ starting
  async function loadScenarios() {
    const sel = $("scenario");
    try {
      const r = await fetch("/api/scenarios");
      const data = await r.json();
      S.scenarios = data.scenarios || [];
    } catch (e) {
      S.scenarios = [];
      showError({ message: `the shipped scenarios cannot be listed (${e.message})` });
    }
    const groups = {};
    for (const s of S.scenarios) {
      const g = s.system_title || s.system;
      (groups[g] = groups[g] || []).push(s);
    }
    for (const [g, list] of Object.entries(groups)) {
      const og = el("optgroup", { label: g });
      for (const s of list) og.append(el("option", { value: s.name, text: `${s.title} (${s.name})` }));
      sel.append(og);
    }
    const wanted = new URLSearchParams(location.search).get("scenario");
    if (wanted) {
      if (S.scenarios.some((s) => s.name === wanted)) {
        sel.value = wanted;
        startShipped(wanted);
      } else {
        showError({ message: `no shipped scenario is called ${JSON.stringify(wanted)}`,
                    hint: "shipped: " + S.scenarios.map((s) => s.name).join(", ") });
      }
    }
  }

  function reset() {
    $("rules-box").open = false;
    S.rules = $("rules").value;
    showRules();
    S.actions = [];
    S.select = null;
    S.last = null;
    $("refused").hidden = true;
    $("choice").hidden = true;
  }

  function showName(title, system) {
    $("scenario-name").replaceChildren(title, system ? el("span", { class: "system", text: ` — ${system}` }) : "");
  }

  function startShipped(name) {
    reset();
    const s = (S.scenarios || []).find((x) => x.name === name);
    S.scenario = name;
    S.scenarioText = null;
    S.fileName = null;
    S.system = s ? s.system : null;
    showName(s ? s.title : name, s ? s.system_title || s.system : "");
    const url = new URL(location.href);
    url.searchParams.set("scenario", name);
    history.replaceState(null, "", url);
    ask(null);
  }

  function startFile(file) {
    const reader = new FileReader();
    reader.onload = () => {
      reset();
      S.scenario = null;
      S.scenarioText = String(reader.result);
      S.fileName = file.name;
      const m = /^system:\s*["']?([A-Za-z0-9_-]+)/m.exec(S.scenarioText);
      S.system = m ? m[1] : null;
      $("scenario").value = "";
      showName(file.name, S.system || "");
      const url = new URL(location.href);
      url.searchParams.delete("scenario");
      history.replaceState(null, "", url);
      ask(null);
    };
    reader.readAsText(file);
  }

  // ------------------------------------------------------------ drawing the answer
  function renderEmpty() {
    $("board").replaceChildren(el("p", { class: "empty", text: "No board: see the message (right)." }));
    for (const id of ["chance", "selected", "decisions", "now", "so-far", "handmade"]) $(id).hidden = true;
    $("player").textContent = "";
  }

  function render(applied) {
    const g = S.last;
    for (const id of ["now", "so-far", "handmade"]) $(id).hidden = false;
    renderBoard(g);
    renderRefused(g.refused, applied);
    renderNow(g);
    renderChance(g);
    renderSelected(g);
    renderDecisions(g);
    renderHistory(g);
    renderHandmade(g);
    const n = S.actions.length;
    $("status").textContent = `${S.scenario || S.fileName}: ${n} action${n === 1 ? "" : "s"} played` +
      (g.player === "terminal" ? " — the turn is over" : "");
  }

  function renderBoard(g) {
    const box = $("board");
    if (!g.svg) {
      box.replaceChildren(el("p", { class: "empty", text: "This system draws no board." }));
      return;
    }
    box.innerHTML = g.svg;
    const svg = box.querySelector("svg");
    if (!svg) return;
    if (!svg.getAttribute("viewBox") && svg.getAttribute("width") && svg.getAttribute("height")) {
      svg.setAttribute("viewBox", `0 0 ${parseFloat(svg.getAttribute("width"))} ${parseFloat(svg.getAttribute("height"))}`);
    }
    svg.removeAttribute("width");
    svg.removeAttribute("height");
    svg.setAttribute("preserveAspectRatio", "xMidYMid meet");
    const mine = new Set(pieceIds(g));
    for (const p of svg.querySelectorAll("[data-piece]:not([data-legal-to])")) {
      const id = p.getAttribute("data-piece");
      if (mine.has(id)) p.classList.add("wc-actor");
      if (id === S.select) p.classList.add("wc-selected");
    }
    for (const d of svg.querySelectorAll("[data-legal-to]")) d.classList.add("wc-dest");
    for (const d of svg.querySelectorAll("[data-legal-target]")) d.classList.add("wc-target");
  }

  /** the ids of the pieces some legal action concerns */
  function pieceIds(g) {
    const ids = [];
    for (const a of g.legal_actions || []) for (const p of a.pieces || []) if (!ids.includes(p)) ids.push(p);
    return ids;
  }

  function renderRefused(refused, applied) {
    const box = $("refused");
    if (!refused) { box.hidden = true; return; }
    const items = (refused.violations || []).map((v) => el("li", { class: "violation" },
      el("div", {}, el("code", { class: "rule", text: v.rule || "" }), " ", el("span", { text: v.message || "" })),
      v.quote ? el("blockquote", { class: "quote", text: `“${v.quote}”` }) : null,
      (v.measurements || []).length
        ? el("ul", { class: "measurements" }, ...v.measurements.map((m) => el("li", { text: m }))) : null,
      el("div", { class: "source", text: [v.document || v.source ? "source: " + (v.document || v.source) : null,
        v.pieces && v.pieces.length ? "pieces: " + v.pieces.join(", ") : null].filter(Boolean).join(" · ") })));
    box.replaceChildren(
      el("strong", { text: "Refused: " + (applied ? applied.text || "hand-made " + describe(applied) : "the action") }),
      el("div", { class: "msg", text: refused.message }),
      items.length ? el("ul", {}, ...items)
        : el("div", { class: "note", text: "(no rule named: the action's shape is not one this turn takes)" }),
      el("button", { type: "button", class: "dismiss", text: "dismiss", onclick: () => { box.hidden = true; } }));
    box.hidden = false;
  }

  function describe(a) {
    const rest = Object.entries(a).filter(([k]) => k !== "kind" && k !== "text" && k !== "pieces")
      .map(([k, v]) => `${k} ${typeof v === "string" ? v : JSON.stringify(v)}`);
    return `${a.kind.replace(/_/g, " ")}: ${rest.join(", ")}`;
  }

  function renderNow(g) {
    const p = $("player");
    if (g.player === "terminal") {
      p.replaceChildren(el("span", { class: "badge done", text: "The turn is over" }),
        el("div", { class: "note", text: "Save the turn file and the next scenario (the buttons below)." }));
    } else if (g.player === "chance") {
      p.replaceChildren(el("span", { class: "badge dice", text: "The dice decide" }));
    } else {
      p.replaceChildren(el("span", { class: "badge side", text: `${g.player} decides` }),
        el("span", { class: "note", text: ` ${g.legal_actions.length} legal action${g.legal_actions.length === 1 ? "" : "s"}` }));
    }
    $("undo").disabled = S.actions.length === 0;
    $("save-turn").disabled = false;
    $("save-next").disabled = !g.scenario_after_yaml;
  }

  // ------------------------------------------------------------ dice
  function renderChance(g) {
    const sec = $("chance");
    const outs = g.chance_outcomes || [];
    sec.hidden = outs.length === 0;
    $("chance-count").textContent = outs.length ? `${outs.length} outcomes, exact odds` : "";
    const body = $("outcomes").tBodies[0];
    body.replaceChildren(...outs.map((o, i) => el("tr", { "data-outcome": i },
      el("td", { text: o.action.text || describe(o.action) }),
      el("td", { class: "odds", title: percent(o.p) },
        el("span", { class: "p", text: o.p }), " ", el("span", { class: "pct", text: percent(o.p) })),
      el("td", {}, el("button", { type: "button", class: "small", title: "this was rolled (entered by hand)",
        text: "rolled", onclick: () => play(o.action) })))));
    $("rolled").value = "";
  }

  function roll() {
    const outs = S.last?.chance_outcomes || [];
    if (!outs.length) return;
    const u = crypto.getRandomValues(new Uint32Array(1))[0] / 4294967296;
    let acc = 0;
    for (const o of outs) {
      acc += fraction(o.p);
      if (u < acc) return play(o.action);
    }
    play(outs[outs.length - 1].action);
  }

  /** the outcome a referee typed: "7" (a 2D6 total or a die's face), or the faces ("light, helmet, helmet") */
  function typedOutcome(text) {
    const t = text.trim().toLowerCase();
    const outs = S.last?.chance_outcomes || [];
    if (!t) return null;
    for (const o of outs) {
      const a = o.action;
      const v = a.roll !== undefined ? a.roll : a.face;
      if (v !== undefined && typeof v !== "object" && String(v).toLowerCase() === t) return a;
      if ((a.text || "").toLowerCase() === t) return a;
    }
    // faces by name, counted ("light, light, helmet"): the faces no outcome counts are left out
    const lower = (r) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k.toLowerCase(), v]));
    const counted = new Set();
    for (const o of outs) {
      if (o.action.roll && typeof o.action.roll === "object") Object.keys(lower(o.action.roll)).forEach((k) => counted.add(k));
    }
    if (!counted.size) return null;
    const counts = {};
    for (const f of t.split(/[\s,;+]+/)) if (counted.has(f)) counts[f] = (counts[f] || 0) + 1;
    if (!Object.keys(counts).length && t !== "none") return null;  // ("none": no face the card reads)
    for (const o of outs) {
      if (!o.action.roll || typeof o.action.roll !== "object") continue;
      const r = lower(o.action.roll);
      if ([...counted].every((k) => (r[k] || 0) === (counts[k] || 0))) return o.action;
    }
    return null;
  }

  function enterRoll() {
    const a = typedOutcome($("rolled").value);
    if (a) return play(a);
    showError({ message: `no outcome of this roll is ${JSON.stringify($("rolled").value)}`,
                hint: "type the total or the face (e.g. 7), or the faces rolled (e.g. light, light, helmet; " +
                      "none: no face the card reads), or press an outcome's button" });
  }

  // ------------------------------------------------------------ the selected piece
  /** the legal actions concerning piece ``id``: those naming it, and (once it is selected) those its
   *  marks stand for (the step of a move under way, whose action names no piece) */
  function concerning(g, id) {
    const words = new Set();
    if (id === S.select) {
      for (const t of document.querySelectorAll("#board [data-legal-to] title, #board [data-legal-target] title")) {
        for (const w of t.textContent.split("; ")) words.add(w.trim());
      }
    }
    return (g.legal_actions || []).filter((a) =>
      (a.pieces || []).includes(id) || (!(a.pieces || []).length && words.has(a.text)));
  }

  function actionButton(a, extra) {
    return el("li", {}, el("button", { type: "button", class: "action", "data-kind": a.kind, title: describe(a),
      text: a.text || describe(a), onclick: () => play(a) }), extra || null);
  }

  function renderSelected(g) {
    const sec = $("selected");
    $("choice").hidden = true;
    if (!S.select) { sec.hidden = true; return; }
    sec.hidden = false;
    $("selected-id").textContent = S.select;
    const list = concerning(g, S.select);
    const ul = $("piece-actions");
    if (!list.length) {
      const why = g.player === "terminal" ? "the turn is over" : g.player === "chance" ? "the dice decide first"
        : "no legal action concerns it now";
      ul.replaceChildren(el("li", { class: "note", text: why }));
      return;
    }
    const filter = $("piece-filter");
    filter.hidden = list.length <= 12;
    const f = filter.hidden ? "" : filter.value.trim().toLowerCase();
    const shown = f ? list.filter((a) => (a.text || describe(a)).toLowerCase().includes(f)) : list;
    ul.replaceChildren(...shown.map((a) => actionButton(a, orderNote(a))));
    if (family() === "grid") gridOdds(g, shown, ul);
  }

  // ------------------------------------------------------------ the grid game: each test's distribution
  /** the tests an activation or a step rolls, as `odds` test files */
  function gridTests(a) {
    if (a.kind === "step") return [["manoeuvre test", { test: "manoeuvre", unit: stepUnit(a), manoeuvre: a.do }]];
    if (a.kind !== "activate") return [];
    const u = a.unit, t = a.target;
    if (a.option === "move") return [["movement die", { test: "movement", unit: u }]];
    if (a.option === "reform") return [["reform test", { test: "reform", unit: u }]];
    if (a.option === "shoot") return [["shooting", { test: "shooting", shooter: u, target: t }]];
    if (a.option === "combat") return [["combat", { test: "combat", attacker: u, defender: t }]];
    if (a.option === "charge") return [["charge move", { test: "movement", unit: u, charge: true }],
      ["combat on contact", { test: "combat", attacker: u, defender: t, charge: true }]];
    return [];
  }

  function stepUnit(a) {
    const m = /^(\S+) /.exec(a.text || "");
    return m ? m[1] : S.select;
  }

  const oddsCache = new Map();

  /** the position the next activation starts from, as a scenario: the shipped one before any
   *  activation, else the scenario after the finished ones (the phase ended there, hypothetically) */
  async function positionNow(g) {
    const finished = (g.log && g.log.activations) || [];
    const base = S.scenarioText !== null ? { scenario_text: S.scenarioText } : { scenario: S.scenario };
    if (!finished.length) return base;
    const upto = S.actions.slice(0, lastFinished());
    const key = "after " + JSON.stringify([base, upto]);
    if (!oddsCache.has(key)) {
      oddsCache.set(key, fetch("/api/game", { method: "POST", headers: { "content-type": "application/json" },
        body: JSON.stringify({ ...base, rules: rulesNow(), actions: [...upto, { kind: "end" }] }) })
        .then((r) => r.json()).then((d) => d.scenario_after_yaml ? { scenario_text: d.scenario_after_yaml } : null));
    }
    return oddsCache.get(key);
  }

  /** the number of actions up to the last finished activation (the page's actions, in order) */
  function lastFinished() {
    const n = ((S.last.log && S.last.log.activations) || []).length;
    if (!n) return 0;
    let seen = 0;
    for (let i = 0; i < S.actions.length; i++) {
      if (["activate", "exchange", "reallocate", "homunculus_est"].includes(S.actions[i].kind)) {
        seen += 1;
        if (seen > n) return i;
      }
    }
    return S.actions.length;
  }

  /** the house rules the turn is played under: the text as it was when the turn (re)started */
  function rulesNow() {
    return S.rules.trim() ? [S.rules] : [];
  }

  function showRules() {
    const text = $("rules").value;
    $("rules-count").textContent = text !== S.rules ? "(edited: apply to use)" : S.rules.trim() ? "(on)" : "";
  }

  async function gridOdds(g, list, ul) {
    const answered = S.seq;
    const where = await positionNow(g);
    if (!where || answered !== S.seq) return;
    list.forEach((a, i) => {
      const li = ul.children[i];
      for (const [what, test] of gridTests(a)) {
        const key = JSON.stringify([where, rulesNow(), test]);
        if (!oddsCache.has(key)) {
          oddsCache.set(key, fetch("/api/odds", { method: "POST", headers: { "content-type": "application/json" },
            body: JSON.stringify({ ...where, rules: rulesNow(), test }) }).then((r) => r.ok ? r.json() : null));
        }
        oddsCache.get(key).then((d) => {
          if (!d || !d.outcomes || answered !== S.seq || !li.isConnected) return;
          li.append(el("div", { class: "odds-line", "data-test": test.test },
            el("span", { class: "what", text: what + ": " }),
            ...Object.entries(d.outcomes).map(([k, p]) => el("span", { class: "outcome" },
              `${k.replace(/_/g, " ")} `, el("b", { text: p })))));
        });
      }
    });
  }

  // ------------------------------------------------------------ what concerns no piece (and the choices)
  const CHOICES = new Set(["card", "order_set"]);

  function renderDecisions(g) {
    const sec = $("decisions");
    const all = g.legal_actions || [];
    sec.hidden = all.length === 0;
    if (!all.length) {
      for (const id of ["pieces-with", "other-actions", "family-notes"]) $(id).replaceChildren();
      return;
    }
    const fam = family();
    const listed = all.filter((a) => !(a.pieces || []).length || CHOICES.has(a.kind));
    const kinds = new Set(all.map((a) => a.kind));
    $("decisions-title").textContent = kinds.has("card") ? "Play a card" : kinds.has("order_set") ? "Order" : "Actions";
    const notes = $("family-notes");
    notes.replaceChildren();
    if (fam === "warmaster" && kinds.has("attempt")) notes.append(ordersTable(all.filter((a) => a.kind === "attempt")));
    if (fam === "grid" && kinds.has("activate")) notes.append(activationsTable(all.filter((a) => a.kind === "activate")));
    if (fam === "grid" && (kinds.has("step") || kinds.has("halt"))) notes.append(manoeuvres(all));
    const others = pieceIds(g).filter((id) => id !== S.select);
    $("pieces-with").replaceChildren(...(others.length && !kinds.has("card") ? [el("div", { class: "pieces-with" },
      el("span", { class: "note", text: "pieces with legal actions: " }),
      ...others.map((id) => el("button", { type: "button", class: "chip", text: id, onclick: () => choose(id) })))] : []));
    const filter = $("filter");
    filter.hidden = listed.length <= 12;
    const f = filter.hidden ? "" : filter.value.trim().toLowerCase();
    const shown = f ? listed.filter((a) => (a.text || describe(a)).toLowerCase().includes(f)) : listed;
    $("other-actions").replaceChildren(...shown.map((a) => actionButton(a)));
  }

  /** Warmaster: the orders that may be attempted, each with its target and p (the action's words)
   *  and its penalties (the drawing's, at the unit) */
  function ordersTable(attempts) {
    const rows = [];
    for (const a of attempts) {
      const m = /\(target (\d+), p ([0-9/]+)\)/.exec(a.text || "");
      const units = Array.isArray(a.units) ? a.units : [a.units];
      rows.push(el("tr", { class: "order" },
        el("td", { text: a.by }), el("td", { class: "units", text: units.join("+") }),
        el("td", { class: "num", text: m ? "≤" + m[1] : "" }),
        el("td", { class: "num", text: m ? m[2] : "" }),
        el("td", { class: "go" }, el("button", { type: "button", class: "small", text: "attempt", title: a.text,
          onclick: () => play(a) }))),
        el("tr", { class: "penalties" }, el("td", { colspan: 5, text: penalties(a.by, units) })));
    }
    return el("div", { class: "family" }, el("h3", { text: "Orders that may be attempted: 2D6 score needed, chance" }),
      el("table", { class: "orders" },
        el("thead", {}, el("tr", {}, ...["by", "units", "needs", "p", ""].map((h) => el("th", { text: h })))),
        el("tbody", {}, ...rows)));
  }

  /** an order's penalties with their measurements (cm to a tenth), and its blunder chance, as the
   *  drawing gives them in the title of the order at its units */
  function penalties(by, units) {
    const key = units.join(",");
    const order = /(\S+) orders (\S+): (\d+) or less on 2D6(?: \((.*?)\))?, p ([0-9/]+), blunder ([0-9/]+)/g;
    for (const g of document.querySelectorAll("#board g.order")) {
      if (g.getAttribute("data-units") !== key) continue;
      const t = g.querySelector("title");
      for (const m of (t ? t.textContent : "").matchAll(order)) {
        if (m[1] !== by) continue;
        const pens = (m[4] || "none").replace(/(\d+\.\d+) cm/g, (_, x) => `${Number(Number(x).toFixed(1))} cm`);
        return "penalties: " + pens + (m[6] !== "0" ? ` · blunder ${m[6]}` : "");
      }
    }
    return "";
  }

  /** the note under an attempt listed for a selected unit */
  function orderNote(a) {
    if (a.kind !== "attempt") return null;
    const p = penalties(a.by, Array.isArray(a.units) ? a.units : [a.units]);
    return p ? el("div", { class: "note", text: p }) : null;
  }

  /** the grid game: each unit's legal activations */
  function activationsTable(acts) {
    const by = {};
    for (const a of acts) (by[a.unit] = by[a.unit] || []).push(a);
    const rows = Object.entries(by).map(([unit, list]) => el("tr", { "data-unit": unit },
      el("td", {}, el("button", { type: "button", class: "chip", text: unit, onclick: () => choose(unit) })),
      el("td", {}, ...list.map((a) => el("button", { type: "button", class: "small", title: a.text,
        text: a.option + (a.target ? " " + a.target : ""), onclick: () => play(a) })))));
    return el("div", { class: "family" }, el("h3", { text: "Legal activations" }),
      el("table", { class: "activations" }, el("tbody", {}, ...rows)));
  }

  const MANOEUVRES = ["forward", "oblique_left", "oblique_right", "turn_left", "turn_right", "drift_left", "drift_right",
    "about_face"];

  /** the grid game's move: every manoeuvre, the listed ones legal, the others sent hand-made for the rules to judge */
  function manoeuvres(all) {
    const legal = new Set(all.filter((a) => a.kind === "step").map((a) => a.do));
    return el("div", { class: "family" }, el("h3", { text: "Step (manoeuvres; greyed: not listed, the rules judge it)" }),
      el("div", { class: "manoeuvres" }, ...MANOEUVRES.map((m) => el("button", {
        type: "button", class: legal.has(m) ? "small" : "small unlisted", "data-do": m,
        text: m.replace(/_/g, " "),
        onclick: () => play(all.find((a) => a.kind === "step" && a.do === m) || { kind: "step", do: m }) }))));
  }

  // ------------------------------------------------------------ the history
  function renderHistory(g) {
    $("history").replaceChildren(...(g.actions || []).map((a) => el("li", { text: a.text || describe(a) })));
    const h = $("history");
    h.scrollTop = h.scrollHeight;
  }

  function renderHandmade(g) {
    const t = $("handmade-text");
    if (t.dataset.touched === "1") return;
    const a = (g.legal_actions || [])[0] || (g.chance_outcomes || [])[0]?.action;
    const shown = a ? bare(a) : {};
    delete shown.text;
    t.value = JSON.stringify(shown);
  }

  // ------------------------------------------------------------ playing
  function play(action) {
    if (document.body.dataset.busy === "1") return;
    $("choice").hidden = true;
    ask(action);
  }

  function choose(id) {
    if (document.body.dataset.busy === "1") return;
    if (id !== S.select) $("piece-filter").value = "";
    S.select = id;
    $("refused").hidden = true;
    ask(null);
  }

  function showChoice(list, what) {
    const box = $("choice");
    box.replaceChildren(el("div", { class: "note", text: what }),
      el("ul", { class: "actions" }, ...list.map((a) => actionButton(a))));
    box.hidden = false;
  }

  function nums(key) {
    return String(key).split(",").map(Number);
  }

  function sameXY(p, key) {
    if (p && !Array.isArray(p) && typeof p === "object") p = p.at;
    if (!Array.isArray(p) || p.length !== 2 || typeof p[0] !== "number") return false;
    const [a, b] = nums(key);
    return Math.abs(p[0] - a) < 1e-3 && Math.abs(p[1] - b) < 1e-3;
  }

  /** the legal actions a marked destination stands for: those of the selected piece (or of
   *  the step under way) whose destination it is, or whose words its title gives */
  function actionsTo(mark) {
    const key = mark.getAttribute("data-legal-to");
    const t = mark.querySelector(":scope > title") || mark.querySelector("title");
    const words = new Set((t ? t.textContent : "").split("; ").map((s) => s.trim()).filter(Boolean));
    const all = S.last?.legal_actions || [];
    const mine = all.filter((a) => !(a.pieces || []).length || a.pieces.includes(S.select));
    return mine.filter((a) => {
      const to = a.to;
      if (sameXY(to, key)) return true;
      const several = Array.isArray(to) && to.some((d) => Array.isArray(d) || (d && typeof d === "object"));
      if (several && to.some((d) => sameXY(d, key))) return true;  // (a brigade's move: any of its units)
      return words.has(a.text);
    });
  }

  function onBoardClick(ev) {
    if (document.body.dataset.busy === "1" || !S.last) return;
    const mark = ev.target.closest("[data-legal-to]");
    if (mark && S.select) {
      const list = actionsTo(mark);
      if (list.length === 1) return play(list[0]);
      if (list.length > 1) return showChoice(list, `${list.length} actions end at ${mark.getAttribute("data-legal-to")}:`);
    }
    const pieceEl = ev.target.closest("[data-piece]:not([data-legal-to])");
    const target = ev.target.closest("[data-legal-target]");
    if (pieceEl) {
      const id = pieceEl.getAttribute("data-piece");
      if (S.select && id !== S.select) {
        // a unit the selected one may attack, or an enemy: its action (listed or hand-made)
        const tid = target ? target.getAttribute("data-legal-target") : null;
        const listed = concerning(S.last, S.select).filter((a) => a.target === id);
        if (tid === id && listed.length === 1) return play(listed[0]);
        if (listed.length > 1) return showChoice(listed, `${S.select} against ${id}:`);
        if (isEnemy(pieceEl) && !listed.length) {
          const made = attackShape(S.select, id);
          if (made) return play(made);
        }
      }
      return choose(id);
    }
    if (target && S.select) {  // (a target's outline drawn apart from its piece)
      const id = target.getAttribute("data-legal-target");
      const listed = concerning(S.last, S.select).filter((a) => a.target === id);
      if (listed.length === 1) return play(listed[0]);
      if (listed.length > 1) return showChoice(listed, `${S.select} against ${id}:`);
    }
    if (S.select) {
      const place = placeOf(ev);
      if (place) {
        const made = moveShape(place);
        if (made) return play(made);
      }
    }
  }

  function isEnemy(pieceEl) {
    const side = pieceEl.closest("[data-side]")?.getAttribute("data-side");
    const player = S.last?.player;
    return Boolean(side && player && player !== "chance" && player !== "terminal" && side !== player);
  }

  /** the place clicked on the board: a hex or square ("c,r" as [c, r]) or a table point in cm */
  function placeOf(ev) {
    // (a hex's label or terrain drawn over it: the hex under the pointer all the same)
    const hex = ev.target.closest("[data-hex]") ||
      document.elementsFromPoint(ev.clientX, ev.clientY).find((e) => e.matches("[data-hex]:not([data-legal-to])"));
    if (hex) return { kind: "hex", at: nums(hex.getAttribute("data-hex")) };
    const svg = $("board").querySelector("svg");
    if (!svg) return null;
    const m = svg.getScreenCTM();
    if (!m) return null;
    const pt = new DOMPoint(ev.clientX, ev.clientY).matrixTransform(m.inverse());
    const table = svg.querySelector("rect.table");
    if (table) {
      // Warmaster: the table drawn at data-scale px per cm (8), y to the north (flipped)
      const scale = Number(svg.getAttribute("data-scale") || table.getAttribute("data-scale") || 8);
      const x0 = Number(table.getAttribute("x") || 0), y0 = Number(table.getAttribute("y") || 0);
      const h = Number(table.getAttribute("height"));
      const w = Number(table.getAttribute("width"));
      if (pt.x < x0 || pt.x > x0 + w || pt.y < y0 || pt.y > y0 + h) return null;
      const x = Math.round((pt.x - x0) / scale), y = Math.round((h - (pt.y - y0)) / scale);
      return { kind: "point", at: [x, y] };
    }
    if (family() === "grid") {
      const cell = Number(svg.getAttribute("data-cell") || 56);
      if (pt.x < 0 || pt.y < 0) return null;
      return { kind: "square", at: [Math.floor(pt.x / cell), Math.floor(pt.y / cell)] };
    }
    return null;
  }

  /** a hand-made move of the selected piece to ``place``, of the family's shape */
  function moveShape(place) {
    const fam = family();
    const all = S.last?.legal_actions || [];
    const kinds = new Set(all.map((a) => a.kind));
    const sel = S.select;
    if (fam === "cc" && place.kind === "hex") {
      const kind = kinds.has("second_move") && !kinds.has("move") ? "second_move" : "move";
      return { kind, piece: sel, to: place.at };
    }
    if (fam === "warmaster" && place.kind === "point") {
      if (kinds.has("move")) {  // the step under way: its units' destinations, the group's shape kept
        const template = all.find((a) => a.kind === "move" && Array.isArray(a.to) && a.to.length > 1);
        if (!template) return { kind: "move", to: [place.at] };
        const first = Array.isArray(template.to[0]) ? template.to[0] : template.to[0].at;
        return { kind: "move", to: template.to.map((d) => {
          const p = Array.isArray(d) ? d : d.at;
          return [p[0] - first[0] + place.at[0], p[1] - first[1] + place.at[1]];
        }) };
      }
      const pieceEl = $("board").querySelector(`[data-piece="${CSS.escape(sel)}"]`);
      const character = pieceEl && (pieceEl.classList.contains("character") || pieceEl.hasAttribute("data-role"));
      if (character) return { kind: "character_move", piece: sel, to: place.at };
      return { kind: "initiative", unit: sel, action: "charge", to: place.at };
    }
    if (fam === "grid" && place.kind === "square") {
      const moving = (kinds.has("step") || kinds.has("halt")) && all.some((a) => a.kind === "halt" && stepUnit(a) === sel);
      const step = moving ? stepTo(sel, place.at) : null;
      if (step) return { kind: "step", do: step };
      $("status").textContent = moving
        ? `no step moves ${sel}'s left front square to ${place.at.join(",")}: turns and about face are the buttons (right)`
        : `square ${place.at.join(",")}: on the grid a unit moves step by step — activate its move, roll, then click ` +
          "where a step takes its left front square, or pick a manoeuvre (right)";
      return null;
    }
    return null;
  }

  /** the grid's steps that move a unit without turning it: its left front square (data-at) moves by
   *  the facing (f) and its left (l) and right (r) */
  const FACING = { north: [[0, -1], [-1, 0]], south: [[0, 1], [1, 0]], east: [[1, 0], [0, -1]], west: [[-1, 0], [0, 1]] };

  function stepTo(unit, square) {
    const g = $("board").querySelector(`[data-piece="${CSS.escape(unit)}"][data-at][data-facing]`);
    if (!g || !FACING[g.getAttribute("data-facing")]) return null;
    const [f, l] = FACING[g.getAttribute("data-facing")];
    const r = [-l[0], -l[1]];
    const [c, w] = nums(g.getAttribute("data-at"));
    const d = [square[0] - c, square[1] - w];
    const shifts = { forward: f, oblique_left: [f[0] + l[0], f[1] + l[1]], oblique_right: [f[0] + r[0], f[1] + r[1]],
      drift_left: l, drift_right: r };
    return Object.keys(shifts).find((m) => shifts[m][0] === d[0] && shifts[m][1] === d[1]) || null;
  }

  /** a hand-made attack of the selected piece on ``target``, of the family's shape */
  function attackShape(sel, target) {
    const fam = family();
    const kinds = new Set((S.last?.legal_actions || []).map((a) => a.kind));
    if (fam === "cc" && (kinds.has("move") || kinds.has("battle") || kinds.has("end"))) {
      return { kind: "battle", piece: sel, target };
    }
    if (fam === "grid" && kinds.has("activate")) return { kind: "activate", unit: sel, option: "combat", target };
    return null;
  }

  function applyHandmade() {
    const t = $("handmade-text");
    let a;
    try {
      a = JSON.parse(t.value);
    } catch (e) {
      return showError({ message: `the hand-made action is not JSON: ${e.message}` });
    }
    if (!a || typeof a !== "object" || typeof a.kind !== "string") {
      return showError({ message: "an action is a JSON object with a \"kind\"" });
    }
    t.dataset.touched = "0";
    play(a);
  }

  function undo() {
    if (!S.actions.length || document.body.dataset.busy === "1") return;
    S.actions = S.actions.slice(0, -1);
    $("refused").hidden = true;
    ask(null);
  }

  // ------------------------------------------------------------ wiring
  document.addEventListener("DOMContentLoaded", () => {
    $("scenario").addEventListener("change", (e) => { if (e.target.value) startShipped(e.target.value); });
    $("scenario-file").addEventListener("change", (e) => { if (e.target.files[0]) startFile(e.target.files[0]); });
    $("restart").addEventListener("click", () => { reset(); ask(null); });
    $("rules").addEventListener("input", showRules);
    $("undo").addEventListener("click", undo);
    $("save-turn").addEventListener("click", () => S.last && download(`${baseName()}-turn.yaml`, S.last.log_yaml));
    $("save-next").addEventListener("click", () =>
      S.last?.scenario_after_yaml && download(`${baseName()}-next.yaml`, S.last.scenario_after_yaml));
    $("roll").addEventListener("click", roll);
    $("enter-roll").addEventListener("click", enterRoll);
    $("rolled").addEventListener("keydown", (e) => { if (e.key === "Enter") enterRoll(); });
    $("filter").addEventListener("input", () => S.last && renderDecisions(S.last));
    $("piece-filter").addEventListener("input", () => S.last && renderSelected(S.last));
    $("handmade-text").addEventListener("input", (e) => { e.target.dataset.touched = "1"; });
    $("handmade-apply").addEventListener("click", applyHandmade);
    $("deselect").addEventListener("click", () => choose(null));
    $("board").addEventListener("click", onBoardClick);
    document.addEventListener("keydown", (e) => {
      if (e.target.closest("input, textarea, select")) return;
      if (e.key === "Escape" && S.select) choose(null);
      else if ((e.key === "u" || e.key === "U") && !e.ctrlKey && !e.metaKey) undo();
    });
    loadScenarios();
  });
})();
