// One game at the table: draw the piles the server sent, and turn drags, clicks,
// double-clicks and keys into moves. The server's engine decides every move.
import { backSVG, cardLabel, cardSVG, CARD_RATIO } from "./cards.js";
import { announce, api, cap, confirmDialog, el, say } from "./util.js";
import { dailyAtTable } from "./daily.js";
import { cardBoxes, DEAL_MS, DRAW_MS, fly, reducedMotion, slideBack, STEP_MS, stepMs } from "./motion.js";
import { applyTheme, bank, BACKS, chosenScore, choose, FELTS, noteScore, resetBank, restarted, settings, SIZES } from "./prefs.js";

const GAP = 0.14;          // space between piles, in card widths
const DOWN_STEP = 0.13;    // fan offset of a face-down card, in card heights
const UP_STEP = 0.25;      // fan offset of a face-up card, in card heights
const MIN_DOWN = 0.05;     // the least a fan may be squeezed to, face down...
const MIN_UP = 0.19;       // ... and face up (the rank and suit still show)
const RIGHT_STEP = 0.62;   // fan offset to the right (a hand), in card widths
const WASTE_STEP = 0.32;   // the waste's last three cards, in card widths (a card's rank fits in it)
const LABEL = 16;          // the band over a row that names its areas, in pixels
const MIN_W = 26;          // the smallest card width, in pixels
const MAX_W = { normal: 104, large: 150 };  // the largest card width, by the card size chosen
const SIDE_KINDS = new Set(["stock", "waste", "reserve", "foundation", "draw", "books"]);  // mirrored for the left hand
const wait = (ms) => new Promise((resolve) => { setTimeout(resolve, ms); });
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
const widths = new Map();
function textWidth(text) {
  if (!widths.has(text)) {
    measure.font = `700 12px system-ui, "DejaVu Sans", sans-serif`;
    widths.set(text, measure.measureText(text).width);
  }
  return widths.get(text);
}

// A card's picture, parsed once for each art and then copied.
const pictures = new Map();
function picture(svg) {
  let template = pictures.get(svg);
  if (!template) {
    template = document.createElement("template");
    template.innerHTML = svg;
    pictures.set(svg, template);
  }
  return template.content.cloneNode(true);
}

// Dollars as Vegas writes them: $15, -$37.
const money = (v) => (v < 0 ? `-$${-v}` : `$${v}`);

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
    this.motion = { runs: 0, skipped: 0, steps: 0, started: null };  // animations played (the last from when), and skipped under reduced motion
    this.playing = null;        // a sequence of moves being played out: {token, table, before}
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
      hint: button("hint", "Hint", () => this.plainHint(), "What a strong player who sees only what you have seen would play"),
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
        " tell me when the deal can no longer be won (looks at the face-down cards)"),
      this.buildLook());
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
      el("span", { id: "label" }), el("span", { id: "moves" }), el("span", { id: "time" }), el("span", { id: "score" }),
      el("span", { id: "status-lines" }));
    this.title = el("h1", { class: "table-title" });
    main.replaceChildren(el("section", { class: "table-page" },
      el("div", { class: "title-row" }, this.title, this.footer), bar, this.banner, this.lostBanner, this.news,
      this.board, this.side, form));
  }

  buildLook() {
    // The look of the table, kept in this browser (prefs.js): colour, card backs, card size,
    // the left-handed layout; and how a game with a choice of scorings is scored.
    const now = settings();
    const select = (id, label, choices, value, change) => {
      const node = el("select", { id }, Object.entries(choices).map(([k, v]) =>
        el("option", { value: k, selected: k === value, text: Array.isArray(v) ? v[0] : v })));
      node.addEventListener("change", () => change(node.value));
      return [el("label", { for: id, text: label }), node];
    };
    const redraw = () => { if (this.table) { this.render(this.table, this.table); } };
    this.scoringSelect = el("select", { id: "scoring" });
    this.scoringSelect.addEventListener("change", () => {
      choose({ scoring: { ...settings().scoring, [this.game.name]: this.scoringSelect.value } });
      redraw();
    });
    this.scoringRule = el("span", { class: "rule", id: "scoring-rule" });
    this.scoringRow = el("div", { class: "look-row", id: "scoring-row" },
      el("label", { for: "scoring", text: "Scoring" }), this.scoringSelect, this.scoringRule,
      el("button", { type: "button", id: "reset-bank", text: "Start the bank again", onclick: () => { resetBank(); redraw(); say("The bank starts again at $0."); } }));
    return el("fieldset", { class: "look", id: "look" }, el("legend", { text: "Table" }),
      el("div", { class: "look-row" },
        ...select("felt", "Table colour", FELTS, now.felt, (v) => { choose({ felt: v }); }),
        ...select("card-back", "Card backs", BACKS, now.back, (v) => { choose({ back: v }); redraw(); }),
        ...select("card-size", "Card size", SIZES, now.size, (v) => { choose({ size: v }); redraw(); }),
        ...select("hand", "Layout", { right: "Right-handed", left: "Left-handed" }, now.hand, (v) => { choose({ hand: v }); redraw(); })),
      this.scoringRow);
  }

  show(table) {
    // The table the server sent: the moves it just played played out card by card (the deal
    // dealt, for a new deal), then drawn as it stands; at once under reduced motion.
    const before = this.playing ? this.playing.table : this.table;
    this.finishMotion();
    const steps = table.steps || [];
    const solitaire = table.family === "solitaire";
    const moving = solitaire && before && before.id === table.id && steps.length > 0 && table.at === before.at + steps.length;
    const dealing = solitaire && (!before || before.id !== table.id || (table.at === 0 && before.at > 0));
    if ((moving || dealing) && reducedMotion()) this.motion.skipped += 1;
    else if (moving) { this.playSteps(before, table); return; }
    this.render(table, before);
    if (dealing && !reducedMotion()) this.dealIn();
  }

  finishMotion() {
    // A sequence still being played out ends at once where it ends (the player acts meanwhile).
    const playing = this.playing;
    if (!playing) return;
    this.playing = null;
    for (const a of this.board.getAnimations({ subtree: true })) a.finish();
    this.render(playing.table, playing.before);
  }

  async playSteps(before, table) {
    const token = {};
    this.playing = { token, table, before };
    this.playing.width = this.board.clientWidth || 800;
    this.playing.avail = this.available();
    this.moving();
    // A long run is drawn a few moves at a time (a drawing at most every DRAW_MS), each move's
    // cards still flying one after the other (delayed within the drawing).
    const ms = stepMs(table.steps.length);
    const group = Math.max(1, Math.ceil(DRAW_MS / ms));
    let shown = { ...before, legal: [] };
    for (let first = 0; first < table.steps.length; first += group) {
      if (!this.playing || this.playing.token !== token) return;
      const steps = table.steps.slice(first, first + group);
      const boxes = cardBoxes(this.cardNodes || new Map());
      const counts = [];
      for (const step of steps) {
        counts.push(new Map(shown.piles.map((p) => [p.name, p.cards.length])));
        shown = { ...shown, piles: shown.piles.map((p) => (step.piles[p.name] ? { ...p, cards: step.piles[p.name] } : p)) };
      }
      this.table = shown;
      this.selected = null;
      this.highlight = null;
      this.draw();
      steps.forEach((step, j) => this.animateStep(step, counts[j], boxes, ms, j * ms, steps.length === 1));
      this.motion.steps += steps.length;
      await wait(ms * steps.length);
    }
    if (!this.playing || this.playing.token !== token) return;
    this.playing = null;
    this.render(table, before);
  }

  animateStep(step, counts, boxes, ms, delay = 0, alone = true) {
    // The cards a step brought to a pile fly from the pile they left (a move's target from its
    // source; a pile filled by the rules from the pile that lost most); every other card that
    // the step shifted slides from where it was.
    const gained = new Map();
    const lost = [];
    for (const pile of this.table.piles) {
      if (!(pile.name in step.piles)) continue;
      const diff = pile.cards.length - (counts.get(pile.name) || 0);
      if (diff > 0) gained.set(pile.name, diff);
      else if (diff < 0) lost.push([pile.name, -diff]);
    }
    lost.sort((a, b) => b[1] - a[1]);
    const arriving = new Set();
    for (const [name, count] of gained) {
      const source = name === step.to && step.from !== step.to ? step.from : (lost.find(([n]) => n !== name) || [null])[0];
      if (!source) continue;
      const had = counts.get(name) || 0;
      const sourceHad = counts.get(source) || 0;
      for (let j = 0; j < count; j++) {
        const node = this.cardNode(name, had + j);
        const from = boxes.get(`${source}|${sourceHad - count + j}`) || boxes.get(`${source}|${sourceHad - 1}`) || this.slotBox(source);
        if (node && from) { fly(node, from, ms * 0.9, delay); arriving.add(node); }
      }
    }
    // In a run of moves only the cards that change piles fly; in a single move the cards it
    // shifted (a fan closing up) slide too.
    if (ms < STEP_MS || !alone) return;
    for (const [key, node] of this.cardNodes) {
      if (arriving.has(node)) continue;
      const from = boxes.get(key);
      if (from) fly(node, from, ms * 0.9);
    }
  }

  cardNode(pile, index) {
    return this.board.querySelector(`.card[data-pile="${CSS.escape(pile)}"][data-index="${index}"]`);
  }

  slotBox(name) {
    const at = this.m && this.m.at.get(name);
    return at ? { left: at.left, top: at.top } : null;
  }

  moving() {
    // An animation starts (counted, for the tests and the bench).
    this.motion.runs += 1;
    this.motion.started = performance.now();
    document.body.dataset.motion = "moving";
  }

  dealIn() {
    // The deal dealt: every card flies from the stock (or the draw pile; else the table's
    // top-left corner) to its place, one after the other.
    const t = this.table;
    const stock = t.piles.find((p) => ["stock", "draw", "deck"].includes(p.kind));
    const from = (stock && this.slotBox(stock.name)) || { left: this.m.left, top: -this.m.h };
    const nodes = [...this.board.querySelectorAll(".card")];
    if (!nodes.length) return;
    this.moving();
    const each = Math.min(14, (DEAL_MS - 250) / nodes.length);
    const runs = nodes.map((node, i) => fly(node, from, 250, i * each)).filter(Boolean);
    Promise.all(runs.map((a) => a.finished)).catch(() => undefined).then(() => {
      if (!this.playing) document.body.dataset.motion = "still";
    });
  }

  render(table, before) {
    document.body.dataset.motion = "still";
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
    const givenUp = table.result === "abandoned";  // the server refuses a restart or a hint then, as after a win
    b.undo.disabled = !table.can_undo;
    b.redo.disabled = !table.can_redo;
    b.restart.disabled = won || givenUp || table.at === 0;
    b.hint.disabled = b.solver.disabled = table.outcome.over || givenUp;
    b.finish.hidden = !table.finish;
    // Safe cards go to foundations: only games that have them offer it.
    document.getElementById("auto-move-label").hidden = !table.piles.some((p) => p.kind === "foundation");
    document.getElementById("warn-lost-label").hidden = table.family !== "solitaire";
    // The panel always has the table's look (issue 29), whatever else the game offers there.
    b.solver.textContent = table.family === "seats" ? "Suggest a move" : "Solver hint (sees face-down cards)";
    // An example of the notation: the text of a legal move, as the server wrote it.
    this.notation.querySelector("input").placeholder = table.legal.length ? `type a move, e.g. ${table.legal[0].move}` : "type a move";
    document.getElementById("label").textContent = table.label;
    document.getElementById("moves").textContent = `moves: ${table.at}`;
    this.showScore(table);
    document.getElementById("status-lines").textContent = table.status.join(" · ");
    if (!before || before.id !== table.id || before.at !== table.at) this.lostBanner.hidden = true;
    this.clock();
    this.drawBanner();
    if (table.daily) dailyAtTable(this, table);
    this.drawSide();
    this.draw();
    this.tell(table, before);
    document.body.dataset.state = won ? "won" : table.outcome.over ? "over" : "playing";
    document.body.dataset.at = table.at;
    // A game just won at this table: the win screen.
    // (In a task of its own, after the table is drawn: drawing both at once would hold the page.)
    if (won && table.family === "solitaire" && before && before.id === table.id && !before.outcome.won) {
      setTimeout(() => { if (this.table === table) this.showWin(table); });
    }
  }

  showScore(table) {
    // The score by the scoring chosen (a game with one scoring has no choice), and the Vegas
    // bank, which this browser keeps (prefs.js).
    const node = document.getElementById("score");
    const all = table.scores || [];
    const chosen = chosenScore(table);
    this.scoringRow.hidden = all.length < 2;
    if (all.length >= 2 && this.scoringSelect.options.length !== all.length) {
      this.scoringSelect.replaceChildren(...all.map((s) => el("option", { value: s.name, text: s.title })));
    }
    if (chosen) this.scoringSelect.value = chosen.name;
    this.scoringRule.textContent = chosen ? chosen.rule : "";
    document.getElementById("reset-bank").hidden = !(chosen && chosen.bank);
    if (!node) return;
    if (!chosen || table.family !== "solitaire") { node.textContent = ""; return; }
    if (chosen.bank) noteScore(table.id, chosen.value, table.result === "won" || table.result === "abandoned");
    node.textContent = `${chosen.title === "Score" ? "score" : chosen.title.toLowerCase()}: ${chosen.text}` +
      (chosen.bank ? ` (bank ${money(bank())})` : "");
    node.title = chosen.rule;
  }

  showWin(table) {
    // The win screen: time, moves, score, streak, level, and the next deal at this level.
    // A modal dialog: the focus moves into it, a screen reader hears it, Escape closes it.
    const old = document.getElementById("win");
    if (old) old.remove();
    const chosen = chosenScore(table);
    const s = table.started === null ? 0 : Math.max(0, Math.round((table.ended ?? table.now) - table.started));
    const time = `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
    const streak = table.streak ?? 1;
    const facts = [
      ["Time", time],
      ["Moves", String(table.at)],
      ["Score", chosen ? `${chosen.text} (${chosen.title})` : "–"],
      ...(chosen && chosen.bank ? [["Bank", money(bank())]] : []),
      ["Streak", `${streak} win${streak === 1 ? "" : "s"} in a row`],
      ["Level", `${cap(table.level)}${table.deal !== null ? `, deal ${table.deal}` : ""}`],
    ];
    const dialog = el("dialog", { class: "win", id: "win", "aria-labelledby": "win-title", "aria-describedby": "win-facts" });
    // Closed, the focus goes to what the banner offers next: a daily deal's name form, or New game.
    const close = () => {
      dialog.close(); dialog.remove();
      const back = ["#daily-entry input", "#banner-new", "#banner-daily"].map((q) => document.querySelector(q)).find(Boolean);
      if (back) back.focus();
    };
    // A daily deal's next step is its leaderboard entry, in the banner under this screen.
    const next = table.daily
      ? el("button", { type: "button", class: "primary", id: "win-next",
        text: table.daily.name ? "See my leaderboard entry" : "Enter the leaderboard", onclick: close })
      : el("button", { type: "button", class: "primary", id: "win-next", text: "Next deal at this level",
        onclick: () => { dialog.close(); dialog.remove(); this.newGame({ level: table.level }); } });
    dialog.append(
      el("h2", { id: "win-title", text: `You won ${table.title}!` }),
      el("dl", { id: "win-facts" }, facts.flatMap(([k, v]) => [el("dt", { text: k }), el("dd", { "data-fact": k.toLowerCase(), text: v })])),
      el("div", { class: "actions" }, next,
        el("button", { type: "button", id: "win-close", text: "Look at the table", onclick: close })));
    dialog.addEventListener("cancel", (e) => { e.preventDefault(); close(); });
    document.body.append(dialog);
    dialog.showModal();
    next.focus();
    if (!reducedMotion()) {
      dialog.animate([{ opacity: 0, transform: "scale(.92)" }, { opacity: 1, transform: "none" }], { duration: 240, easing: "ease-out" });
    }
    announce(`You won! ${facts.map(([k, v]) => `${k}: ${v}.`).join(" ")}`);
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
    history.replaceState({}, "", table.daily ? table.daily.link : tableUrl(table));
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

  boardWidth() {
    // The board's width; while a run of moves plays out, the one it had when it began (read
    // once: reading it again after each step would make the browser lay the page out again).
    if (this.playing && this.playing.width) return this.playing.width;
    return this.board.clientWidth || 800;
  }

  available() {
    if (this.playing && this.playing.avail) return this.playing.avail;
    // The height the board may take: the window below the board's top, so the whole table
    // is in view; when the controls above leave less than half the window, half of it.
    const top = this.board.getBoundingClientRect().top + window.scrollY;
    return Math.max(window.innerHeight - top - 10, window.innerHeight * 0.5);
  }

  naturalSteps(pile, h) {
    // The fan offsets of a pile spread downwards, unsqueezed, and the least they may be squeezed to.
    const cards = pile.cards.slice(0, -1);
    return { steps: cards.map((c) => (c.up ? UP_STEP : DOWN_STEP) * h), least: cards.map((c) => (c.up ? MIN_UP : MIN_DOWN) * h) };
  }

  plan(w, avail) {
    // Card size, where each pile and card goes, and the labels over the areas, for card width w.
    const t = this.table;
    const width = this.boardWidth();
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
      for (const p of [...t.piles].sort((a, b) => a.y - b.y || this.px(a) - this.px(b))) {
        if (p.area && !seen.has(p.area)) { seen.add(p.area); labels.set(p.name, p.area); }
      }
    }
    // A row's names on one line; where one would run into the next, on two lines, every other one
    // on the upper line (so each may take the room up to the next but one).
    const bands = new Map();  // row -> lines of its band
    const line = new Map();   // pile -> the line (0: the lower) its area's name is on
    const xOf = (p) => left + gap + this.px(p) * (w + gap);
    for (const row of rows) {
      const named = t.piles.filter((p) => p.y === row && labels.has(p.name)).sort((a, b) => this.px(a) - this.px(b));
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
        // A mirrored pile (the left-handed layout) fans to the left.
        const step = Math.min(RIGHT_STEP * w, n > 1 ? (2.6 * w) / (n - 1) : 0) * (this.mirrored(pile) ? -1 : 1);
        for (let i = 0; i < n; i++) s.push([i * step, 0]);
      } else if (pile.fan === "waste") {
        const step = WASTE_STEP * w * (this.mirrored(pile) ? -1 : 1);
        for (let i = 0; i < n; i++) s.push([Math.max(0, i - (n - 3)) * step, 0]);
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
    const width = this.boardWidth();
    this.look = settings();
    this.xs = this.shownXs(t);
    const most = Math.min(MAX_W[this.look.size] || MAX_W.normal, width / (t.width + GAP * (t.width + 1)));
    const avail = this.available();
    // The width found last time, when it still fits and the next larger one does not (a move
    // seldom changes it): two plans instead of the whole search.
    const last = this.lastW;
    if (last && last.most === most && last.w > MIN_W) {
      const plan = this.plan(last.w, avail);
      if (plan.height <= avail && (last.w >= most || this.plan(Math.min(most, last.w / 0.94), avail).height > avail)) return plan;
    }
    let w = most;
    let plan = this.plan(w, avail);
    while (plan.height > avail && w > MIN_W) {
      w = Math.max(MIN_W, w * 0.94);
      plan = this.plan(w, avail);
    }
    this.lastW = { w, most };
    return plan;
  }

  extent(pile) {
    // The rectangle a pile takes on the board (its slot and every card spread from it, to the
    // right or, mirrored, to the left).
    const m = this.m;
    const s = (m.spots.get(pile.name) || []);
    const xs = s.map(([dx]) => dx);
    const ys = s.map(([, dy]) => dy);
    const { left, top } = m.at.get(pile.name);
    return { left: left + Math.min(0, ...xs), top, right: left + m.w + Math.max(0, ...xs), bottom: top + m.h + Math.max(0, ...ys) };
  }

  shownXs(t) {
    // Where each pile is drawn across the table (in card widths): where the game puts it, or,
    // in the left-handed layout, with the stock, waste, reserve, foundations (and a draw pile
    // and its books) mirrored: a row of them mirrored across the table, a column of them
    // beside the play moved to the other side (and the play beside it).
    const xs = new Map(t.piles.map((p) => [p.name, p.x]));
    if (this.look.hand !== "left" || t.family !== "solitaire") return xs;
    const side = t.piles.filter((p) => SIDE_KINDS.has(p.kind));
    const others = t.piles.filter((p) => !SIDE_KINDS.has(p.kind));
    if (!side.length) return xs;
    for (const p of side) xs.set(p.name, t.width - 1 - p.x);
    if (others.length && side.some((p) => others.some((o) => o.y === p.y))) {
      const shift = t.width - Math.max(...others.map((o) => o.x + 1));
      for (const o of others) xs.set(o.name, o.x + shift);
    }
    return xs;
  }

  px(pile) { return this.xs && this.xs.has(pile.name) ? this.xs.get(pile.name) : pile.x; }

  mirrored(pile) { return this.look && this.look.hand === "left" && SIDE_KINDS.has(pile.kind) && this.table.family === "solitaire"; }

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
    const back = (BACKS[this.look.back] || [])[1] || t.back;
    const kept = this.cardNodes || new Map();
    const cards = new Map();
    const keptSlots = this.slotNodes || new Map();
    const slots = new Map();
    for (const pile of t.piles) {
      const left = m.left + m.gap + this.px(pile) * (m.w + m.gap);
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
      // A pile's slot is kept from one drawing to the next too, only what changed written.
      const counted = ["stock", "draw", "deck", "won", "area"].includes(pile.kind) || (pile.kind === "hand" && pile.grab === "none");
      const place = `left:${left}px;top:${top}px;width:${m.w}px;height:${m.h}px`;
      let slot = keptSlots.get(pile.name);
      if (!slot || slot.counted !== counted) {
        slot = el("div", { "data-pile": pile.name, role: "group", tabindex: "-1" });
        slot.counted = counted;
        if (counted) slot.append(el("span", { class: "count", "aria-hidden": "true" }));
      }
      if (slot.className !== classes.join(" ")) slot.className = classes.join(" ");
      if (slot.getAttribute("aria-label") !== label) slot.setAttribute("aria-label", label);
      if (slot.getAttribute("tabindex") !== "-1") slot.setAttribute("tabindex", "-1");
      if (slot.drawn !== place) { slot.style.cssText = place; slot.drawn = place; }
      if (counted && slot.firstChild.textContent !== String(pile.cards.length)) slot.firstChild.textContent = String(pile.cards.length);
      slots.set(pile.name, slot);
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
        // A card node is kept from one drawing to the next while the same art lies at the same
        // place (its picture is not parsed again: moves played out card by card stay cheap).
        const art = card.up ? `face:${card.face.kind}:${card.face.text}` : `back:${back}`;
        const key = `${pile.name}|${i}`;
        let node = kept.get(key);
        if (!node || node.dataset.art !== art) {
          node = el("div", { "data-pile": pile.name, "data-index": i, role: "img" });
          node.dataset.art = art;
          node.append(picture(card.up ? cardSVG(card.face) : backSVG(back)));
        }
        // Only what changed is written (a style written again makes the browser work it out again).
        const place = `left:${left + dx}px;top:${top + dy}px;width:${m.w}px;height:${m.h}px;z-index:${10 + i}`;
        const state = [cls.join(" "), card.up ? cardLabel(card.face) : "face-down card", card.up && pile.grab !== "none" ? "0" : "-1"];
        if (node.className !== state[0]) node.className = state[0];
        if (node.getAttribute("aria-label") !== state[1]) node.setAttribute("aria-label", state[1]);
        if (node.getAttribute("tabindex") !== state[2]) node.setAttribute("tabindex", state[2]);
        if (node.drawn !== place || node.style.transform) { node.style.cssText = place; node.drawn = place; }
        cards.set(key, node);
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
      const at = m.at.get(name);
      const right = this.mirrored(pile) ? at.left + dx + m.w : box.right;
      mark("hinted card", { left: at.left + dx, top: at.top + dy, right, bottom: box.bottom });
    }
    const active = this.board.contains(document.activeElement) ? document.activeElement.dataset : null;
    const keep = active ? { pile: active.pile, index: active.index === undefined ? -1 : Number(active.index) } : null;
    this.cardNodes = cards;
    this.slotNodes = slots;
    // Put the nodes in order, moving only those out of place (nodes kept stay in the page).
    // The nodes not drawn again leave first: one left in the way (an area's label, made anew
    // each drawing) would have every later node moved, and each move costs the page a layout.
    // (Then every node left is one drawn, and none is left after the last.)
    const drawn = [...nodes, ...marks];
    const wanted = new Set(drawn);
    for (const child of [...this.board.childNodes]) if (!wanted.has(child)) child.remove();
    let here = this.board.firstChild;
    for (const node of drawn) {
      if (node === here) here = here.nextSibling;
      else this.board.insertBefore(node, here);
    }
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
    if (e.button !== 0) return;
    if (this.playing) this.finishMotion();  // a move played out ends at once when the player acts
    if (this.busy) return;
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
        if (dst && ev.type === "pointerup") {
          // The cards stay where they were let go until the server answers: a move played flies
          // on from there; a refused one slides back (send).
          this.dropped = dragging.nodes;
          this.drop(pileName, grab, dst);
        } else {
          if (!reducedMotion()) this.moving();
          slideBack(dragging.nodes).then(() => { this.draw(); document.body.dataset.motion = "still"; });
        }
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
    if (this.playing && !["Shift", "Control", "Alt", "Meta", "Tab"].includes(e.key)) this.finishMotion();  // a key ends a run at once
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
      return inRow.reduce((a, b) => (Math.abs(this.px(b) - this.px(pile)) < Math.abs(this.px(a) - this.px(pile)) ? b : a));
    };
    if (key === "ArrowLeft" || key === "ArrowRight") {
      const row = piles.filter((p) => p.y === pile.y).sort((a, b) => this.px(a) - this.px(b));
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
    // The plain hint looks only at what the player sees (a seats table: the playable cards): the
    // honest player's move, which takes about half a second (it imagines the unseen cards).
    if (this.table.family === "seats") { this.showPlayable(); return; }
    if (!this.busy) say("Thinking about the cards you have not seen…", "info");
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
    const data = await this.request("move", { ...body, auto: this.autoBox.checked }, false);
    const dropped = this.dropped;
    this.dropped = null;
    if (!data) {
      // Refused: cards dragged there slide back where they came from.
      if (dropped && dropped.length && document.body.contains(dropped[0])) {
        if (!reducedMotion()) this.moving();
        await slideBack(dropped);
      }
      this.draw();
      document.body.dataset.motion = "still";
      return false;
    }
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

  async request(action, body, redraw = true) {
    if (this.playing) this.finishMotion();
    if (this.busy) return null;
    this.busy = true;
    try {
      return await api(`/api/tables/${encodeURIComponent(this.table.id)}/${action}`, { at: this.table.at, ...body });
    } catch (err) {
      if (err.table) this.show(err.table);
      else if (redraw) this.draw();
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
    const chosen = chosenScore(this.table);
    if (chosen && chosen.bank) restarted(this.table.id);  // the deal so far stays in the bank; dealt again, it costs again
    this.act("restart");
  }

  async newGame(override = {}) {
    if (!(await this.leaveGame("New game"))) return;
    const level = override.level ?? (this.levelSelect ? this.levelSelect.value : null);
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
