// One game at the table: draw the piles the server sent, and turn drags, clicks,
// double-clicks and keys into moves. The server's engine decides every move.
import { backSVG, cardLabel, cardSVG, CARD_RATIO } from "./cards.js";
import { api, cap, el, say } from "./util.js";

const GAP = 0.14;          // space between piles, in card widths
const DOWN_STEP = 0.13;    // fan offset of a face-down card, in card heights
const UP_STEP = 0.25;      // fan offset of a face-up card, in card heights
const RIGHT_STEP = 0.62;   // fan offset to the right (a hand), in card widths
const WASTE_STEP = 0.28;   // the waste's last three cards, in card widths
const MAX_FAN = 4.2;       // the most a fanned pile may reach below its top card, in card heights
const AUTO_KEY = "cardtable.autoMove";

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

export function renderTable(main, table, game) {
  new Table(main, table, game);
}

export class Table {
  constructor(main, table, game) {
    this.game = game;
    this.selected = null;       // {pile, index}
    this.highlight = null;      // {cards: [[pile, index]], piles: [name]} from a hint
    this.busy = false;
    this.build(main);
    this.show(table);
    window.onresize = () => this.draw();
    document.onkeydown = (e) => this.key(e);
    clearInterval(window.cardtableClock);
    window.cardtableClock = setInterval(() => this.clock(), 1000);
  }

  // --- the page ---------------------------------------------------------------

  build(main) {
    const levels = this.game.levels;
    this.levelSelect = levels.length ? el("select", { id: "level", "aria-label": "level of the new game" },
      levels.map((l) => el("option", { value: l, text: cap(l) }))) : null;
    this.dealInput = levels.length ? el("input", { id: "deal-number", inputmode: "numeric", placeholder: "deal #", "aria-label": "deal number", size: 7 }) : null;
    const button = (id, text, action, title) => el("button", { id, type: "button", title, text, onclick: () => action() });
    this.buttons = {
      new: button("new", "New game", () => this.newGame(), "Deal a new game (of the chosen level)"),
      restart: button("restart", "Restart", () => this.act("restart"), "Back to the start of this deal"),
      undo: button("undo", "Undo", () => this.act("undo"), "Take back a move (Ctrl+Z)"),
      redo: button("redo", "Redo", () => this.act("redo"), "Play again a move taken back (Ctrl+Y)"),
      hint: button("hint", "Hint", () => this.showPlayable(), "Highlight the cards that can be played"),
      solver: button("solver-hint", "Solver hint", () => this.solverHint(), "The solver's next move"),
      finish: button("finish", "Autocomplete", () => this.act("finish"), "Play the checked winning finish"),
    };
    this.autoBox = el("input", { type: "checkbox", id: "auto-move", checked: localStorage.getItem(AUTO_KEY) === "1" });
    this.autoBox.addEventListener("change", () => localStorage.setItem(AUTO_KEY, this.autoBox.checked ? "1" : "0"));
    const bar = el("div", { class: "toolbar", role: "toolbar", "aria-label": "game controls" },
      el("span", { class: "group" }, this.levelSelect, this.buttons.new,
        this.dealInput, this.dealInput && button("open-deal", "Open", () => this.openDeal(), "Open this deal number")),
      el("span", { class: "group" }, this.buttons.restart, this.buttons.undo, this.buttons.redo),
      el("span", { class: "group" }, this.buttons.hint, this.buttons.solver, this.buttons.finish),
      el("label", { class: "auto", for: "auto-move", id: "auto-move-label" }, this.autoBox, " auto-move safe cards"));
    this.board = el("div", { class: "board", role: "application", "aria-label": "card table" });
    this.banner = el("div", { id: "banner", hidden: true });
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
    this.footer = el("footer", { class: "status" },
      el("span", { id: "label" }), el("span", { id: "moves" }), el("span", { id: "time" }), el("span", { id: "status-lines" }));
    this.title = el("h1", { class: "table-title" });
    main.replaceChildren(el("section", { class: "table-page" }, this.title, bar, this.banner, this.board, this.side, form, this.footer));
  }

  show(table) {
    this.table = table;
    this.offset = Date.now() / 1000 - table.now;
    this.selected = null;
    this.highlight = null;
    this.rememberUrl(table);
    document.title = `${table.title} ${table.label} — cardtable`;
    this.title.textContent = `${table.title}`;
    if (this.levelSelect && table.level) this.levelSelect.value = table.level;
    const b = this.buttons;
    const won = table.outcome.won;
    b.undo.disabled = !table.can_undo;
    b.redo.disabled = !table.can_redo;
    b.restart.disabled = won || table.at === 0;
    b.hint.disabled = b.solver.disabled = table.outcome.over;
    b.finish.hidden = !table.finish;
    // Safe cards go to foundations: only games that have them offer it.
    document.getElementById("auto-move-label").hidden = !table.piles.some((p) => p.kind === "foundation");
    b.solver.textContent = table.family === "seats" ? "Suggest a move" : "Solver hint";
    // An example of the notation: the text of a legal move, as the server wrote it.
    this.notation.querySelector("input").placeholder = table.legal.length ? `type a move, e.g. ${table.legal[0].move}` : "type a move";
    document.getElementById("label").textContent = table.label;
    document.getElementById("moves").textContent = `moves: ${table.at}`;
    document.getElementById("status-lines").textContent = table.status.join(" · ");
    this.clock();
    this.drawBanner();
    this.drawSide();
    this.draw();
    document.body.dataset.state = won ? "won" : table.outcome.over ? "over" : "playing";
    document.body.dataset.at = table.at;
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
    parts.push(el("button", { type: "button", id: "banner-close", text: "Look at the table", onclick: () => { this.banner.hidden = true; } }));
    this.banner.replaceChildren(...parts);
    if (o.won) this.banner.append(el("div", { class: "confetti", "aria-hidden": "true" },
      Array.from({ length: 24 }, (_, i) => el("i", { style: `--i:${i}` }))));
  }

  drawSide() {
    // A seats table: the turn, a line a seat and the log, all in the server's (the game's) words.
    const t = this.table;
    if (t.family !== "seats") { this.side.replaceChildren(); return; }
    const players = el("ul", { class: "seats-list" }, (t.lines || []).map((line, s) =>
      el("li", { class: s === t.to_move ? "to-move" : "", text: line })));
    const turn = t.turn;
    const lines = t.log || [];
    const log = el("ol", { class: "log", "aria-label": "what happened", start: (t.log_from || 0) + Math.max(1, lines.length - 11) },
      lines.slice(-12).map((line) => el("li", { text: line })));
    this.side.replaceChildren(el("p", { class: "turn", text: turn }), players, el("h2", { text: "What happened" }), log);
  }

  // --- drawing the piles -------------------------------------------------------------

  metrics() {
    const t = this.table;
    const width = this.board.clientWidth || 800;
    const w = Math.min(104, width / (t.width + GAP * (t.width + 1)));
    const used = t.width * w + (t.width + 1) * w * GAP;
    return { w, h: w * CARD_RATIO, gap: w * GAP, left: Math.max(0, (width - used) / 2) };
  }

  offsets(pile, m) {
    // The position of every card of a pile relative to its top-left corner.
    const n = pile.cards.length;
    const spots = [];
    if (pile.fan === "down") {
      let steps = pile.cards.slice(0, -1).map((c) => (c.up ? UP_STEP : DOWN_STEP) * m.h);
      const total = steps.reduce((a, b) => a + b, 0);
      if (total > MAX_FAN * m.h) steps = steps.map((s) => s * (MAX_FAN * m.h) / total);
      let y = 0;
      for (let i = 0; i < n; i++) { spots.push([0, y]); y += steps[i] || 0; }
    } else if (pile.fan === "right") {
      const step = Math.min(RIGHT_STEP * m.w, n > 1 ? (2.6 * m.w) / (n - 1) : 0);
      for (let i = 0; i < n; i++) spots.push([i * step, 0]);
    } else if (pile.fan === "waste") {
      for (let i = 0; i < n; i++) spots.push([Math.max(0, i - (n - 3)) * WASTE_STEP * m.w, 0]);
    } else {
      for (let i = 0; i < n; i++) spots.push([0, 0]);
    }
    return spots;
  }

  draw() {
    const t = this.table;
    const m = this.metrics();
    this.m = m;
    const rows = new Map();
    const spots = new Map();
    for (const pile of t.piles) {
      const s = this.offsets(pile, m);
      spots.set(pile.name, s);
      const extent = m.h + (s.length ? s[s.length - 1][1] : 0);
      rows.set(pile.y, Math.max(rows.get(pile.y) || m.h, extent));
    }
    const tops = new Map();
    let y = m.gap;
    const captions = t.family === "seats" ? 18 : 0;  // a name under each seat's piles
    for (const row of [...rows.keys()].sort((a, b) => a - b)) { tops.set(row, y); y += rows.get(row) + m.gap * 1.6 + captions; }
    this.board.style.height = `${y}px`;
    const nodes = [];
    const sel = this.selected;
    const targets = new Set(sel ? t.legal.filter((mv) => mv.from === sel.pile && mv.index === sel.index).map((mv) => mv.to) : []);
    const hl = this.highlight || { cards: [], piles: [] };
    const hlCards = new Set(hl.cards.map(([p, i]) => `${p}|${i}`));
    for (const pile of t.piles) {
      const left = m.left + m.gap + pile.x * (m.w + m.gap);
      const top = tops.get(pile.y);
      pile.left = left; pile.top = top;
      const s = spots.get(pile.name);
      const faceUp = pile.cards.filter((c) => c.up).map((c) => cardLabel(c.face));
      const down = pile.cards.length - faceUp.length;
      const label = `${pile.label}: ${pile.cards.length ? [down ? `${down} face down` : null, ...faceUp].filter(Boolean).join(", ") : "empty"}`;
      const classes = ["pile", pile.kind];
      if (targets.has(pile.name)) classes.push("target");
      if (hl.piles.includes(pile.name)) classes.push("hinted");
      const slot = el("div", {
        class: classes.join(" "), "data-pile": pile.name, role: "group", "aria-label": label, tabindex: "-1",
        style: `left:${left}px;top:${top}px;width:${m.w}px;height:${m.h}px`,
      });
      if (["stock", "draw", "deck", "won", "area"].includes(pile.kind) || (pile.kind === "hand" && pile.grab === "none")) {
        slot.append(el("span", { class: "count", text: String(pile.cards.length) }));
      }
      nodes.push(slot);
      if (captions) {
        nodes.push(el("div", { class: "caption", "aria-hidden": "true", text: pile.caption || "",
          style: `left:${left - m.gap}px;top:${top + m.h + 3}px;width:${m.w + 2 * m.gap}px` }));
      }
      pile.cards.forEach((card, i) => {
        const [dx, dy] = s[i];
        const key = `${pile.name}|${i}`;
        const cls = ["card", card.up ? "up" : "down"];
        if (hlCards.has(key)) cls.push("hinted");
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
    const active = this.board.contains(document.activeElement) ? document.activeElement.dataset : null;
    const keep = active ? { pile: active.pile, index: active.index === undefined ? -1 : Number(active.index) } : null;
    this.board.replaceChildren(...nodes);
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
        const dst = this.dropTarget(dragging.nodes[0], pileName);
        dragging.nodes.forEach((n) => { n.style.transform = ""; n.classList.remove("dragging"); });
        if (dst && dst !== pileName && ev.type === "pointerup") this.drop(pileName, grab, dst);
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

  dropTarget(node, from) {
    // The pile the dragged card overlaps most (its fanned cards included).
    const r = node.getBoundingClientRect();
    let best = null; let bestArea = 0;
    for (const pile of this.table.piles) {
      if (pile.name === from) continue;
      const rects = [...this.board.querySelectorAll(`[data-pile="${CSS.escape(pile.name)}"]`)].map((n) => n.getBoundingClientRect());
      const box = rects.reduce((a, b) => ({ left: Math.min(a.left, b.left), top: Math.min(a.top, b.top), right: Math.max(a.right, b.right), bottom: Math.max(a.bottom, b.bottom) }));
      const w = Math.min(r.right, box.right) - Math.max(r.left, box.left);
      const h = Math.min(r.bottom, box.bottom) - Math.max(r.top, box.top);
      if (w > 0 && h > 0 && w * h > bestArea) { bestArea = w * h; best = pile.name; }
    }
    return best;
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

  async solverHint() {
    const data = await this.request("hint", {});
    if (!data) return;
    const hint = data.hint;
    this.show(data);
    const legal = hint.move && data.legal.find((mv) => mv.move === hint.move);
    if (legal) {
      this.highlight = { cards: legal.index === null ? [] : [[legal.from, legal.index]], piles: [legal.index === null ? legal.from : legal.to] };
      this.draw();
    }
    say(hint.text, hint.status === "lost" ? "error" : "info");
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
      return null;
    } finally {
      this.busy = false;
    }
  }

  async newGame(override = {}) {
    const level = this.levelSelect ? this.levelSelect.value : null;
    const body = { game: this.table.game, options: {} };
    for (const o of this.game.options) if (this.table.options[o.name] !== undefined) body.options[o.name] = this.table.options[o.name];
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
    this.newGame({ deal: Number(text) });
  }
}
