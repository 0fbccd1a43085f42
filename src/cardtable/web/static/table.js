// One game at the table: draw the piles the server sent, and turn drags, clicks,
// double-clicks and keys into moves. The server's engine decides every move.
import { backSVG, cardLabel, cardSVG, CARD_RATIO } from "./cards.js";
import { announce, api, cap, confirmDialog, el, say } from "./util.js";

const GAP = 0.14;          // space between piles, in card widths
const DOWN_STEP = 0.13;    // fan offset of a face-down card, in card heights
const UP_STEP = 0.25;      // fan offset of a face-up card, in card heights
const MIN_DOWN = 0.05;     // the least a fan may be squeezed to, face down...
const MIN_UP = 0.19;       // ... and face up (the rank and suit still show)
const RIGHT_STEP = 0.62;   // fan offset to the right (a hand), in card widths
const WASTE_STEP = 0.32;   // the waste's last three cards, in card widths (a card's rank fits in it)
const LABEL = 16;          // the band over a row that names its areas, in pixels
const MIN_W = 26;          // the smallest card width, in pixels
const AUTO_KEY = "cardtable.autoMove";
const WARN_KEY = "cardtable.warnLost";

export function newTableRequest(game, query, override = {}) {
  const options = {};
  for (const o of game.options) if (query.has(o.name)) options[o.name] = query.get(o.name);
  const body = { game: game.name, options };
  const level = override.level ?? query.get("level");
  const deal = override.deal ?? (override.level ? null : query.get("deal"));
  if (deal !== null && deal !== undefined && deal !== "") body.deal = Number(deal);
  else if (level && level !== "random") {
    body.level = level;
    const seed = override.level ? null : query.get("seed");
    if (seed) body.seed = Number(seed);
  } else body.level = "random";
  return body;
}

export function tableUrl(table) {
  const query = new URLSearchParams();
  if (table.deal !== null) {
    if (table.level !== "random" && table.seed !== null) { query.set("level", table.level); query.set("seed", table.seed); }
    else query.set("deal", table.deal);
  }
  for (const [key, value] of Object.entries(table.options)) if (key !== "autoplay") query.set(key, value);
  query.set("id", table.id);
  return `/play/${table.game}?${query}`;
}

// The width of an area's name as the page writes it (the .area-label font), in pixels.
const measure = document.createElement("canvas").getContext("2d");
function textWidth(text) {
  measure.font = `700 12px system-ui, "DejaVu Sans", sans-serif`;
  return measure.measureText(text).width;
}

export function renderTable(main, table, game) {
  new Table(main, table, game);
}

export class Table {
  constructor(main, table, game) {
    this.game = game;
    this.selected = null;       // {pile, index}
    this.highlight = null;      // {cards: [[pile, index]], piles: [name]} from a hint
    this.busy = false;
    this.heard = null;          // the log lines a screen reader has been told (a seats table)
    this.build(main);
    this.show(table);
    window.onresize = () => this.draw();
    document.onkeydown = (e) => this.key(e);
    clearInterval(window.cardtableClock);
    window.cardtableClock = setInterval(() => this.clock(), 1000);
    window.cardtableTable = this;
  }

  // --- the page ---------------------------------------------------------------

  build(main) {
    const levels = this.game.levels;
    this.levelSelect = levels.length ? el("select", { id: "level", "aria-label": "level of the new game" },
      levels.map((l) => el("option", { value: l, text: cap(l) }))) : null;
    this.dealInput = levels.length ? el("input", { id: "deal-number", inputmode: "numeric", placeholder: "deal #", "aria-label": "deal number", size: 7 }) : null;
    // A game with a choice of numbering (Klondike's JavaSolitaire numbers): the deal box takes either.
    const numbering = this.game.options.find((o) => o.name === "numbering");
    this.numberingSelect = levels.length && numbering ? el("select", { id: "numbering", "aria-label": "whose deal numbers" },
      numbering.choices.map((c) => el("option", { value: c, text: c === "javasol" ? "JavaSolitaire numbers" : `${c} numbers` }))) : null;
    const button = (id, text, action, title) => el("button", { id, type: "button", title, text, onclick: () => action() });
    this.buttons = {
      new: button("new", "New game", () => this.newGame(), "Deal a new game (of the level chosen in Deal and settings)"),
      restart: button("restart", "Restart", () => this.restart(), "Back to the start of this deal"),
      undo: button("undo", "Undo", () => this.act("undo"), "Take back a move (Ctrl+Z)"),
      redo: button("redo", "Redo", () => this.act("redo"), "Play again a move taken back (Ctrl+Y)"),
      hint: button("hint", "Hint", () => this.plainHint(), "A move, chosen from the cards you can see"),
      solver: button("solver-hint", "Solver hint (sees face-down cards)", () => this.solverHint(), "The solver's next move: it looks at the face-down cards"),
      finish: button("finish", "Autocomplete", () => this.act("finish"), "Play the checked winning finish"),
    };
    this.autoBox = el("input", { type: "checkbox", id: "auto-move", checked: localStorage.getItem(AUTO_KEY) === "1" });
    this.autoBox.addEventListener("change", () => localStorage.setItem(AUTO_KEY, this.autoBox.checked ? "1" : "0"));
    this.warnBox = el("input", { type: "checkbox", id: "warn-lost", checked: localStorage.getItem(WARN_KEY) === "1" });
    this.warnBox.addEventListener("change", () => {
      localStorage.setItem(WARN_KEY, this.warnBox.checked ? "1" : "0");
      if (this.warnBox.checked) this.checkVerdict();
    });
    this.rulesLink = el("a", { class: "button", id: "rules-link", href: `/rules/${this.game.name}`, text: "Rules" });
    // The choices made less often (which deal, the settings) fold away, so the table keeps the window.
    const settings = el("details", { class: "settings" }, el("summary", { text: levels.length ? "Deal and settings" : "Settings" }),
      levels.length ? el("div", { class: "deal-box" }, this.levelSelect, this.dealInput, this.numberingSelect,
        button("open-deal", "Open", () => this.openDeal(), "Open this deal number")) : null,
      el("label", { class: "auto", for: "auto-move", id: "auto-move-label" }, this.autoBox, " auto-move safe cards"),
      el("label", { class: "auto", for: "warn-lost", id: "warn-lost-label" }, this.warnBox,
        " tell me when the deal can no longer be won (looks at the face-down cards)"));
    this.settings = settings;
    const bar = el("div", { class: "toolbar", role: "toolbar", "aria-label": "game controls" },
      el("span", { class: "group" }, this.buttons.new, this.buttons.restart, this.buttons.undo, this.buttons.redo),
      el("span", { class: "group" }, this.buttons.hint, this.buttons.solver, this.buttons.finish, this.rulesLink), settings);
    this.board = el("div", { class: "board", role: "application", "aria-label": "card table", "aria-roledescription": "card table" });
    this.banner = el("div", { id: "banner", hidden: true });
    this.lostBanner = el("div", { id: "lost-banner", hidden: true });
    this.news = el("div", { class: "news", id: "news" });
    this.side = el("div", { class: "side" });
    const form = el("form", { class: "notation" },
      el("label", { for: "move-input", text: "Move" }),
      el("input", { id: "move-input", autocomplete: "off", spellcheck: "false", placeholder: "type a move" }),
      el("button", { type: "submit", text: "Play" }));
    form.addEventListener("submit", (e) => {
      e.preventDefault();
      const input = form.querySelector("input");
      const text = input.value.trim();
      if (text) this.send({ move: text }).then((ok) => { if (ok) input.value = ""; });
    });
    this.notation = form;
    this.footer = el("p", { class: "status", id: "status" },
      el("span", { id: "label" }), el("span", { id: "moves" }), el("span", { id: "time" }), el("span", { id: "status-lines" }));
    this.title = el("h1", { class: "table-title" });
    main.replaceChildren(el("section", { class: "table-page" },
      el("div", { class: "title-row" }, this.title, this.footer), bar, this.banner, this.lostBanner, this.news,
      this.board, this.side, form));
  }

  show(table) {
    const before = this.table;
    this.table = table;
    this.offset = Date.now() / 1000 - table.now;
    this.selected = null;
    this.highlight = null;
    this.rememberUrl(table);
    document.title = `${table.title} ${table.label} — cardtable`;
    this.title.textContent = `${table.title}`;
    if (this.levelSelect && table.level) this.levelSelect.value = table.level;
    if (this.numberingSelect && table.options.numbering) this.numberingSelect.value = table.options.numbering;
    const b = this.buttons;
    const won = table.outcome.won;
    b.undo.disabled = !table.can_undo;
    b.redo.disabled = !table.can_redo;
    b.restart.disabled = won || table.at === 0;
    b.hint.disabled = b.solver.disabled = table.outcome.over;
    b.finish.hidden = !table.finish;
    // Safe cards go to foundations: only games that have them offer it.
    document.getElementById("auto-move-label").hidden = !table.piles.some((p) => p.kind === "foundation");
    document.getElementById("warn-lost-label").hidden = table.family !== "solitaire";
    this.settings.hidden = !this.levelSelect && document.getElementById("auto-move-label").hidden && document.getElementById("warn-lost-label").hidden;
    b.solver.textContent = table.family === "seats" ? "Suggest a move" : "Solver hint (sees face-down cards)";
    // An example of the notation: the text of a legal move, as the server wrote it.
    this.notation.querySelector("input").placeholder = table.legal.length ? `type a move, e.g. ${table.legal[0].move}` : "type a move";
    document.getElementById("label").textContent = table.label;
    document.getElementById("moves").textContent = `moves: ${table.at}`;
    document.getElementById("status-lines").textContent = table.status.join(" · ");
    if (!before || before.id !== table.id || before.at !== table.at) this.lostBanner.hidden = true;
    this.clock();
    this.drawBanner();
    this.drawSide();
    this.draw();
    this.tell(table, before);
    document.body.dataset.state = won ? "won" : table.outcome.over ? "over" : "playing";
    document.body.dataset.at = table.at;
  }

  tell(table, before) {
    // What just happened, in words, for the eye (the news line) and for a screen reader (announce).
    let words = [];
    if (table.family === "seats") {
      const lines = table.log || [];
      const upTo = (table.log_from || 0) + lines.length;
      if (this.heard !== null && upTo > this.heard) words = lines.slice(Math.max(0, lines.length - (upTo - this.heard)));
      this.heard = upTo;
      const newest = lines.slice(-3).reverse();
      this.news.replaceChildren(el("p", { class: "turn", text: table.turn || "" }),
        el("ul", { class: "newest", "aria-label": "the newest moves" }, newest.map((line, i) => el("li", { class: i ? "" : "latest", text: line }))));
    } else {
      words = table.told || [];
      this.news.replaceChildren(el("p", { class: "told", text: words.join(" ") }));
    }
    if (table.outcome.over && (!before || !before.outcome.over || before.id !== table.id)) words = [...words, table.outcome.reason || ""];
    if (words.length) announce(words.join(" "));
  }

  rememberUrl(table) {
    // The address of the game (game, options, deal): reopens it, shares the deal.
    history.replaceState({}, "", tableUrl(table));
  }

  clock() {
    // Seconds from the first move to the end, or to now on the server's clock.
    const t = this.table;
    const node = document.getElementById("time");
    if (!node || !t) return;
    const now = Date.now() / 1000 - this.offset;
    const s = t.started === null ? 0 : Math.max(0, Math.round((t.ended ?? now) - t.started));
    node.textContent = `time: ${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
  }

  drawBanner() {
    const t = this.table;
    const o = t.outcome;
    this.banner.hidden = !o.over;
    this.banner.className = o.won ? "won" : "over";
    if (!o.over) return;
    const parts = [el("strong", { text: o.reason || (o.won ? "You won!" : "Game over.") })];
    if (o.won && t.family === "solitaire") parts.push(el("span", { text: ` ${t.at} moves.` }));
    parts.push(el("button", { type: "button", id: "banner-new", text: this.newGameLabel || "New game", onclick: () => this.newGame() }));
    if (!o.won && t.can_undo) parts.push(el("button", { type: "button", id: "banner-undo", text: "Undo", onclick: () => this.act("undo") }));
    parts.push(el("button", { type: "button", id: "banner-close", text: "Look at the table", onclick: () => { this.banner.hidden = true; } }));
    this.banner.replaceChildren(...parts);
    if (o.won) this.banner.append(el("div", { class: "confetti", "aria-hidden": "true" },
      Array.from({ length: 24 }, (_, i) => el("i", { style: `--i:${i}` }))));
  }

  showLost(text) {
    // The deal can no longer be won (found by looking at the face-down cards): say so, offer
    // the ways back, and let the player play on.
    this.lostBanner.replaceChildren(el("strong", { text }),
      el("button", { type: "button", id: "lost-undo", text: "Undo", disabled: !this.table.can_undo, onclick: () => this.act("undo") }),
      el("button", { type: "button", id: "lost-restart", text: "Restart", onclick: () => this.restart() }),
      el("button", { type: "button", id: "lost-new", text: "New game", onclick: () => this.newGame() }),
      el("button", { type: "button", id: "lost-play-on", text: "Play on", onclick: () => { this.lostBanner.hidden = true; } }));
    this.lostBanner.hidden = false;
    announce(text);
  }

  drawSide() {
    // A seats table: a line a seat and the whole log, in the server's (the game's) words.
    const t = this.table;
    if (t.family !== "seats") { this.side.replaceChildren(); return; }
    const players = el("ul", { class: "seats-list" }, (t.lines || []).map((line, s) =>
      el("li", { class: s === t.to_move ? "to-move" : "", text: line })));
    const lines = t.log || [];
    const log = el("ol", { class: "log", "aria-label": "what happened", start: (t.log_from || 0) + Math.max(1, lines.length - 11) },
      lines.slice(-12).map((line) => el("li", { text: line })));
    this.side.replaceChildren(players, el("h2", { text: "What happened" }), log);
  }

  // --- laying out and drawing the piles ------------------------------------------------------

  available() {
    // The height the board may take: the window below the board's top, so the whole table
    // is in view; when the controls above leave too little, the window's own height.
    const top = this.board.getBoundingClientRect().top + window.scrollY;
    return Math.max(window.innerHeight - top - 10, window.innerHeight * 0.55);
  }

  naturalSteps(pile, h) {
    // The fan offsets of a pile spread downwards, unsqueezed, and the least they may be squeezed to.
    const cards = pile.cards.slice(0, -1);
    return { steps: cards.map((c) => (c.up ? UP_STEP : DOWN_STEP) * h), least: cards.map((c) => (c.up ? MIN_UP : MIN_DOWN) * h) };
  }

  plan(w, avail) {
    // Card size, where each pile and card goes, and the labels over the areas, for card width w.
    const t = this.table;
    const width = this.board.clientWidth || 800;
    const h = w * CARD_RATIO;
    const gap = w * GAP;
    const used = t.width * w + (t.width + 1) * gap;
    const left = Math.max(0, (width - used) / 2);
    const seats = t.family === "seats";
    const captions = seats ? 18 : 0;
    const rows = [...new Set(t.piles.map((p) => p.y))].sort((a, b) => a - b);
    // Each area named once, over its first pile (a seats table names its piles under them instead).
    const labels = new Map();
    if (!seats) {
      const seen = new Set();
      for (const p of [...t.piles].sort((a, b) => a.y - b.y || a.x - b.x)) {
        if (p.area && !seen.has(p.area)) { seen.add(p.area); labels.set(p.name, p.area); }
      }
    }
    // A row's names on one line; where one would run into the next, on two lines, every other one
    // on the upper line (so each may take the room up to the next but one).
    const bands = new Map();  // row -> lines of its band
    const line = new Map();   // pile -> the line (0: the lower) its area's name is on
    const xOf = (p) => left + gap + p.x * (w + gap);
    for (const row of rows) {
      const named = t.piles.filter((p) => p.y === row && labels.has(p.name)).sort((a, b) => a.x - b.x);
      if (!named.length) continue;
      const fits = named.every((p, i) => textWidth(labels.get(p.name)) <= (i + 1 < named.length ? xOf(named[i + 1]) : width) - xOf(p) - 4);
      bands.set(row, fits ? 1 : 2);
      named.forEach((p, i) => line.set(p.name, fits ? 0 : (named.length - 1 - i) % 2));
    }
    const labelled = new Map([...bands].map(([row, lines]) => [row, lines * LABEL]));
    const natural = new Map(t.piles.filter((p) => p.fan === "down").map((p) => [p.name, this.naturalSteps(p, h)]));
    const sum = (xs) => xs.reduce((a, b) => a + b, 0);
    const rowFan = (row, key) => Math.max(0, ...t.piles.filter((p) => p.y === row && natural.has(p.name)).map((p) => sum(natural.get(p.name)[key])));
    const fixed = gap + sum(rows.map((r) => h + gap * 1.6 + captions + (labelled.get(r) || 0)));
    const want = sum(rows.map((r) => rowFan(r, "steps")));
    // Squeeze the fans (never below their least) when the table would not fit the window.
    const budget = avail - fixed;
    const squeeze = want > 0 && budget < want ? Math.max(0, budget) / want : 1;
    const spots = new Map();
    for (const pile of t.piles) {
      const n = pile.cards.length;
      const s = [];
      if (pile.fan === "down") {
        const { steps, least } = natural.get(pile.name);
        let y = 0;
        for (let i = 0; i < n; i++) { s.push([0, y]); y += i < steps.length ? Math.max(least[i], steps[i] * squeeze) : 0; }
      } else if (pile.fan === "right") {
        const step = Math.min(RIGHT_STEP * w, n > 1 ? (2.6 * w) / (n - 1) : 0);
        for (let i = 0; i < n; i++) s.push([i * step, 0]);
      } else if (pile.fan === "waste") {
        for (let i = 0; i < n; i++) s.push([Math.max(0, i - (n - 3)) * WASTE_STEP * w, 0]);
      } else {
        for (let i = 0; i < n; i++) s.push([0, 0]);
      }
      spots.set(pile.name, s);
    }
    const tops = new Map();
    let y = gap;
    for (const row of rows) {
      y += labelled.get(row) || 0;
      tops.set(row, y);
      const extent = Math.max(h, ...t.piles.filter((p) => p.y === row).map((p) => {
        const s = spots.get(p.name);
        return h + (s.length ? s[s.length - 1][1] : 0);
      }));
      y += extent + gap * 1.6 + captions;
    }
    return { w, h, gap, left, tops, spots, labels, line, captions, height: y };
  }

  layout() {
    // The largest cards (up to 104 px wide) with which the whole table fits the board's width
    // and the window's height.
    const t = this.table;
    const width = this.board.clientWidth || 800;
    let w = Math.min(104, width / (t.width + GAP * (t.width + 1)));
    const avail = this.available();
    let plan = this.plan(w, avail);
    while (plan.height > avail && w > MIN_W) {
      w = Math.max(MIN_W, w * 0.94);
      plan = this.plan(w, avail);
    }
    return plan;
  }

  extent(pile) {
    // The rectangle a pile takes on the board (its slot and every card spread from it).
    const m = this.m;
    const s = (m.spots.get(pile.name) || []);
    const last = s.length ? s[s.length - 1] : [0, 0];
    const { left, top } = m.at.get(pile.name);
    return { left, top, right: left + m.w + last[0], bottom: top + m.h + last[1] };
  }

  draw() {
    const t = this.table;
    const m = this.layout();
    m.at = new Map();  // each pile's top-left corner on the board (the table as sent stays as it was)
    this.m = m;
    this.board.style.height = `${m.height}px`;
    const nodes = [];
    const marks = [];
    const sel = this.selected;
    const targets = new Set(sel ? t.legal.filter((mv) => mv.from === sel.pile && mv.index === sel.index).map((mv) => mv.to) : []);
    const hl = this.highlight || { cards: [], piles: [] };
    for (const pile of t.piles) {
      const left = m.left + m.gap + pile.x * (m.w + m.gap);
      const top = m.tops.get(pile.y);
      m.at.set(pile.name, { left, top });
      const s = m.spots.get(pile.name);
      const faceUp = pile.cards.filter((c) => c.up).map((c) => cardLabel(c.face));
      const down = pile.cards.length - faceUp.length;
      const note = pile.note ? ` (${pile.note})` : "";
      const label = `${pile.label}${note}: ${pile.cards.length ? [down ? `${down} face down` : null, ...faceUp].filter(Boolean).join(", ") : "empty"}`;
      const classes = ["pile", pile.kind];
      if (targets.has(pile.name)) classes.push("target");
      if (pile.aside) classes.push("aside");
      const slot = el("div", {
        class: classes.join(" "), "data-pile": pile.name, role: "group", "aria-label": label, tabindex: "-1",
        style: `left:${left}px;top:${top}px;width:${m.w}px;height:${m.h}px`,
      });
      if (["stock", "draw", "deck", "won", "area"].includes(pile.kind) || (pile.kind === "hand" && pile.grab === "none")) {
        slot.append(el("span", { class: "count", "aria-hidden": "true", text: String(pile.cards.length) }));
      }
      nodes.push(slot);
      if (m.labels.has(pile.name)) {
        nodes.push(el("div", { class: "area-label", "aria-hidden": "true", text: m.labels.get(pile.name),
          style: `left:${left}px;top:${top - LABEL * (1 + m.line.get(pile.name))}px` }));
      }
      if (pile.note) {
        // On the pile, over its lower edge, as wide as the pile and its gap (a long note wraps).
        const size = Math.max(8, Math.min(11, m.w * 0.2));
        nodes.push(el("div", { class: "note", "aria-hidden": "true", text: pile.note,
          style: `left:${left - m.gap * 0.4}px;top:${top + m.h - 3}px;width:${m.w + m.gap * 0.8}px;font-size:${size}px` }));
      }
      if (m.captions) {
        nodes.push(el("div", { class: "caption", "aria-hidden": "true", text: pile.caption || "",
          style: `left:${left - m.gap}px;top:${top + m.h + 3}px;width:${m.w + 2 * m.gap}px` }));
      }
      pile.cards.forEach((card, i) => {
        const [dx, dy] = s[i];
        const cls = ["card", card.up ? "up" : "down"];
        if (sel && sel.pile === pile.name && i >= sel.index && this.groupEnd(pile, sel.index) > i) cls.push("selected");
        const node = el("div", {
          class: cls.join(" "), "data-pile": pile.name, "data-index": i,
          "aria-label": card.up ? cardLabel(card.face) : "face-down card",
          role: "img",
          tabindex: card.up && pile.grab !== "none" ? "0" : "-1",
          style: `left:${left + dx}px;top:${top + dy}px;width:${m.w}px;height:${m.h}px;z-index:${10 + i}`,
        });
        node.innerHTML = card.up ? cardSVG(card.face) : backSVG(t.back);
        nodes.push(node);
      });
    }
    // Highlights are drawn over the cards, so a place lights up wherever it can be seen:
    // the places the picked card may go, and a hint's card and place.
    const mark = (kind, box) => marks.push(el("div", { class: `mark ${kind}`, "aria-hidden": "true",
      style: `left:${box.left - 3}px;top:${box.top - 3}px;width:${box.right - box.left + 6}px;height:${box.bottom - box.top + 6}px` }));
    for (const pile of t.piles) {
      if (targets.has(pile.name)) mark("target", this.extent(pile));
      if (hl.piles.includes(pile.name)) mark("hinted", this.extent(pile));
    }
    for (const [name, index] of hl.cards) {
      const pile = this.pile(name);
      if (!pile) continue;
      const box = this.extent(pile);
      const [dx, dy] = m.spots.get(name)[index] || [0, 0];
      mark("hinted card", { left: box.left + dx, top: box.top + dy, right: box.right, bottom: box.bottom });
    }
    const active = this.board.contains(document.activeElement) ? document.activeElement.dataset : null;
    const keep = active ? { pile: active.pile, index: active.index === undefined ? -1 : Number(active.index) } : null;
    this.board.replaceChildren(...nodes, ...marks);
    if (keep) this.focus(keep.pile, keep.index);
    this.board.onpointerdown = (e) => this.pointerDown(e);
  }

  // --- which cards move together --------------------------------------------------------

  pile(name) { return this.table.piles.find((p) => p.name === name); }

  grabIndex(pile, index) {
    // The lowest card that moves when a player takes card `index` of `pile`, or -1.
    const card = pile.cards[index];
    if (!card || !card.up) return -1;
    switch (pile.grab) {
      case "group": return index;
      case "single": return index;
      case "top": return index === pile.cards.length - 1 ? index : -1;
      case "unit": return pile.cards.findIndex((c) => c.up);
      default: return -1;
    }
  }

  groupEnd(pile, index) {
    return pile.grab === "single" ? index + 1 : pile.cards.length;
  }

  // --- pointer: drag and drop, click, double-click --------------------------------------------

  pointerDown(e) {
    if (e.button !== 0 || this.busy) return;
    const target = e.target.closest(".card, .pile");
    if (!target) return;
    const pileName = target.dataset.pile;
    const pile = this.pile(pileName);
    const index = target.classList.contains("card") ? Number(target.dataset.index) : -1;
    const grab = index >= 0 ? this.grabIndex(pile, index) : -1;
    const start = { x: e.clientX, y: e.clientY };
    let dragging = null;
    const move = (ev) => {
      const dx = ev.clientX - start.x; const dy = ev.clientY - start.y;
      if (!dragging && grab >= 0 && Math.hypot(dx, dy) > 6) {
        const nodes = [...this.board.querySelectorAll(`.card[data-pile="${CSS.escape(pileName)}"]`)]
          .filter((n) => Number(n.dataset.index) >= grab && Number(n.dataset.index) < this.groupEnd(pile, grab));
        nodes.forEach((n) => n.classList.add("dragging"));
        dragging = { nodes };
        this.selected = null;
      }
      if (dragging) dragging.nodes.forEach((n) => { n.style.transform = `translate(${dx}px, ${dy}px)`; });
    };
    const up = (ev) => {
      window.removeEventListener("pointermove", move);
      window.removeEventListener("pointerup", up);
      window.removeEventListener("pointercancel", up);
      if (dragging) {
        const dst = this.pileAt(ev.clientX, ev.clientY, pileName);
        dragging.nodes.forEach((n) => { n.style.transform = ""; n.classList.remove("dragging"); });
        if (dst && ev.type === "pointerup") this.drop(pileName, grab, dst);
        else this.draw();
      } else if (ev.type === "pointerup") {
        // Two clicks (or taps) on one card within 400 ms: a double-click (the page is redrawn
        // between them, so the browser's own dblclick event cannot be relied on).
        const now = Date.now();
        const last = this.lastClick;
        this.lastClick = { pile: pileName, index, time: now };
        if (last && last.pile === pileName && last.index === index && index >= 0 && now - last.time < 400) {
          this.lastClick = null;
          this.doubleClick(pile, index);
        } else {
          this.click(pile, index);
        }
      }
    };
    window.addEventListener("pointermove", move);
    window.addEventListener("pointerup", up);
    window.addEventListener("pointercancel", up);
    e.preventDefault();
  }

  pileAt(x, y, from) {
    // The pile under the pointer where a drag ends (its slot or any card spread from it), or,
    // in the space between piles, the nearest one within half a card; none when that is the
    // pile dragged from, or cards set aside.
    const box = this.board.getBoundingClientRect();
    const px = x - box.left; const py = y - box.top;
    let best = null; let bestDistance = this.m.w / 2;
    for (const pile of this.table.piles) {
      const r = this.extent(pile);
      const distance = Math.hypot(Math.max(r.left - px, 0, px - r.right), Math.max(r.top - py, 0, py - r.bottom));
      if (distance < bestDistance || (distance === 0 && best === null)) { best = pile; bestDistance = distance; }
    }
    return best && best.name !== from && !best.aside ? best.name : null;
  }

  click(pile, index) {
    const t = this.table;
    if (pile.kind === "stock") {
      // The stock's own move (a draw, a redeal): the legal move that leaves it as a whole or comes back to it.
      const legal = t.legal.find((mv) => mv.index === null && (mv.from === pile.name || mv.to === pile.name));
      if (legal) this.send({ move: legal.move });
      else say("The stock cannot be used now.", "error");
      return;
    }
    if (this.selected) {
      const sel = this.selected;
      if (sel.pile === pile.name) {
        this.selected = null;
        const grab = index >= 0 ? this.grabIndex(pile, index) : -1;
        if (grab >= 0 && grab !== sel.index) this.selected = { pile: pile.name, index: grab };
        this.draw();
        return;
      }
      this.selected = null;
      if (pile.aside) { this.draw(); return; }
      this.drop(sel.pile, sel.index, pile.name);
      return;
    }
    const grab = index >= 0 ? this.grabIndex(pile, index) : -1;
    if (grab < 0) {
      if (index >= 0 && !pile.cards[index].up) say("That card is face down.", "error");
      return;
    }
    this.selected = { pile: pile.name, index: grab };
    this.draw();
    const n = t.legal.filter((mv) => mv.from === pile.name && mv.index === grab).length;
    say(n ? `Now click where it goes (${n} place${n > 1 ? "s" : ""} highlighted).` : "Selected: no legal move for this card right now.");
  }

  doubleClick(pile, index) {
    const grab = this.grabIndex(pile, index);
    this.selected = null;
    if (grab < 0) { this.draw(); return; }
    this.toHome(pile, grab);
  }

  toHome(pile, grab) {
    const t = this.table;
    const kinds = (name) => this.pile(name).kind;
    const legal = t.legal.filter((mv) => mv.from === pile.name && mv.index === grab);
    const home = legal.find((mv) => kinds(mv.to) === "foundation");
    if (home) return this.send({ move: home.move });
    const foundations = t.piles.filter((p) => p.kind === "foundation");
    if (foundations.length) return this.drop(pile.name, grab, foundations[0].name);
    if (legal.length === 1) return this.send({ move: legal[0].move });
    say(legal.length ? "More than one place takes it: drag it, or click it then its place." : "No legal move for this card.", "error");
  }

  drop(from, index, to) {
    const legal = this.table.legal.find((mv) => mv.from === from && mv.index === index && mv.to === to);
    return legal ? this.send({ move: legal.move }) : this.send({ from, index, to });
  }

  // --- keys -------------------------------------------------------------------------------

  key(e) {
    if (!document.body.contains(this.board)) return;
    if (document.querySelector("dialog[open]")) return;
    const typing = e.target.closest && e.target.closest("input, select, textarea");
    if ((e.ctrlKey || e.metaKey) && !typing) {
      if (e.key === "z" || e.key === "Z") { e.preventDefault(); if (!this.buttons.undo.disabled) this.act("undo"); }
      if (e.key === "y" || e.key === "Y") { e.preventDefault(); if (!this.buttons.redo.disabled) this.act("redo"); }
      return;
    }
    if (typing) return;
    const node = document.activeElement && document.activeElement.closest && document.activeElement.closest("#main .board .card, #main .board .pile");
    if (e.key === "Escape") { this.selected = null; this.highlight = null; this.draw(); return; }
    if (!node) {
      if (e.key.startsWith("Arrow")) { const first = this.board.querySelector(".card[tabindex='0']"); if (first) { first.focus(); e.preventDefault(); } }
      return;
    }
    const pileName = node.dataset.pile;
    const index = node.classList.contains("card") ? Number(node.dataset.index) : -1;
    if (e.key === "Enter" || e.key === " ") {
      e.preventDefault();
      this.keyFocus = { pile: pileName, index };
      this.click(this.pile(pileName), index);
      return;
    }
    if (!e.key.startsWith("Arrow")) return;
    e.preventDefault();
    const [focusPile, focusIndex] = this.neighbour(pileName, index, e.key);
    this.focus(focusPile, focusIndex);
  }

  neighbour(pileName, index, key) {
    // Arrow keys: up and down walk a pile's face-up cards, then to the row above or below;
    // left and right go to the next pile of the row (wrapping round).
    const piles = this.table.piles;
    const pile = this.pile(pileName);
    const top = (p) => p.cards.length - 1;
    const firstUp = pile.cards.findIndex((c) => c.up);
    const nearest = (row) => {
      const inRow = piles.filter((p) => p.y === row);
      if (!inRow.length) return null;
      return inRow.reduce((a, b) => (Math.abs(b.x - pile.x) < Math.abs(a.x - pile.x) ? b : a));
    };
    if (key === "ArrowLeft" || key === "ArrowRight") {
      const row = piles.filter((p) => p.y === pile.y).sort((a, b) => a.x - b.x);
      const next = row[(row.indexOf(pile) + (key === "ArrowRight" ? 1 : row.length - 1)) % row.length];
      return [next.name, top(next)];
    }
    const down = key === "ArrowDown";
    if (down && index >= 0 && index < top(pile)) return [pileName, index + 1];
    if (!down && index > firstUp && firstUp >= 0) return [pileName, index - 1];
    const rows = [...new Set(piles.map((p) => p.y))].sort((a, b) => a - b);
    const row = rows[rows.indexOf(pile.y) + (down ? 1 : -1)];
    const next = row === undefined ? null : nearest(row);
    return next ? [next.name, top(next)] : [pileName, index];
  }

  focus(pile, index) {
    const sel = index >= 0 ? `.card[data-pile="${CSS.escape(pile)}"][data-index="${index}"]` : `.pile[data-pile="${CSS.escape(pile)}"]`;
    const node = this.board.querySelector(sel) || this.board.querySelector(`.pile[data-pile="${CSS.escape(pile)}"]`);
    if (node) { node.setAttribute("tabindex", "0"); node.focus(); }
  }

  // --- hints ------------------------------------------------------------------------------

  showPlayable() {
    const t = this.table;
    const cards = t.legal.filter((mv) => mv.index !== null).map((mv) => [mv.from, mv.index]);
    // A move of the stock as a whole (a draw, a redeal): the stock pile lights up.
    const stocks = t.piles.filter((p) => p.kind === "stock" && t.legal.some((mv) => mv.index === null && (mv.from === p.name || mv.to === p.name)));
    const stock = stocks.length > 0;
    this.highlight = { cards, piles: stocks.map((p) => p.name) };
    this.draw();
    say(cards.length || stock
      ? `${new Set(cards.map((c) => c.join("|"))).size} card(s) can be played${stock ? ", and the stock can be used" : ""}.`
      : "No card can be played.");
  }

  showHint(hint) {
    // A hint's move lit up where it is seen: its card and the place it goes (or the stock).
    const legal = hint.move && this.table.legal.find((mv) => mv.move === hint.move);
    if (legal) {
      this.highlight = legal.index === null
        ? { cards: [], piles: [this.pile(legal.from).kind === "stock" ? legal.from : legal.to] }
        : { cards: [[legal.from, legal.index]], piles: [legal.to] };
      this.draw();
    }
    say(hint.text, hint.status === "lost" ? "error" : "info");
    announce(hint.text);
    if (hint.status === "lost" && this.table.family === "solitaire") this.showLost(hint.text);
  }

  async plainHint() {
    // The plain hint looks only at what the player sees (a seats table: the playable cards).
    if (this.table.family === "seats") { this.showPlayable(); return; }
    const data = await this.request("hint", { kind: "plain" });
    if (!data) return;
    this.show(data);
    this.showHint(data.hint);
  }

  async solverHint() {
    const data = await this.request("hint", { kind: "solver" });
    if (!data) return;
    this.show(data);
    this.showHint(data.hint);
  }

  async checkVerdict() {
    // Asked for by the player (the setting): is the deal lost? The server looks at the face-down cards.
    const t = this.table;
    if (t.family !== "solitaire" || t.outcome.over || !this.warnBox.checked) return;
    const data = await this.request("verdict", {});
    if (data && data.verdict.status === "lost" && data.at === this.table.at) this.showLost(data.verdict.text);
  }

  // --- talking to the server -------------------------------------------------------------------

  async send(body) {
    const data = await this.request("move", { ...body, auto: this.autoBox.checked });
    if (!data) { this.draw(); return false; }
    this.show(data);
    if (this.keyFocus) { this.focus(this.keyFocus.pile, -1); this.keyFocus = null; }
    if (data.outcome.won) say("You won!", "win");
    else if (data.outcome.over) say(data.outcome.reason, "error");
    else say("");
    if (this.warnBox.checked && !data.outcome.over) this.checkVerdict();
    return true;
  }

  async act(action) {
    const data = await this.request(action, {});
    if (data) { this.show(data); say(""); }
  }

  async request(action, body) {
    if (this.busy) return null;
    this.busy = true;
    try {
      return await api(`/api/tables/${encodeURIComponent(this.table.id)}/${action}`, { at: this.table.at, ...body });
    } catch (err) {
      if (err.table) this.show(err.table);
      else this.draw();
      say(err.message, "error");
      announce(err.message);
      return null;
    } finally {
      this.busy = false;
    }
  }

  async leaveGame(what) {
    // A game with moves that is not over counts as lost when it is left: ask first, and say so.
    const t = this.table;
    if (t.at === 0 || t.outcome.over) return true;
    const moves = `${t.at} move${t.at > 1 ? "s" : ""}`;
    return confirmDialog(`${what}? This game has ${moves}: it will count as a loss in your statistics.`, what, "Keep playing");
  }

  async restart() {
    if (!(await this.leaveGame("Restart"))) return;
    this.act("restart");
  }

  async newGame(override = {}) {
    if (!(await this.leaveGame("New game"))) return;
    const level = this.levelSelect ? this.levelSelect.value : null;
    const body = { game: this.table.game, options: {} };
    for (const o of this.game.options) if (this.table.options[o.name] !== undefined) body.options[o.name] = this.table.options[o.name];
    if (override.numbering) body.options.numbering = override.numbering;
    if (override.deal !== undefined) body.deal = override.deal;
    else if (level) body.level = level;
    try {
      this.show(await api("/api/tables", body));
      say("");
    } catch (err) {
      say(err.message, "error");
    }
  }

  openDeal() {
    const text = this.dealInput.value.trim();
    if (!/^\d+$/.test(text)) { say("A deal number is a whole number, such as 12345.", "error"); return; }
    this.newGame({ deal: Number(text), numbering: this.numberingSelect ? this.numberingSelect.value : undefined });
  }
}
