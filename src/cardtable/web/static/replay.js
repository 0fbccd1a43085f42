// A finished game of a room, replayed move by move (/replay/ID?view=V&at=N). The server deals
// the game again and plays its stored moves through the rules (GET /api/replays/ID): this page
// shows the table after move N from one point of view (a seat's, a spectator's, or every card
// face up) and every move in words. Keyboard: ← and → step back and forward, Home and End go
// to the deal and the end; the slider and the list of moves jump to any move.
import { backSVG, cardLabel, cardSVG, CARD_RATIO } from "./cards.js";
import { announce, api, el, say } from "./util.js";

export async function openReplay(main, id) {
  const query = new URLSearchParams(location.search);
  const page = new ReplayPage(main, id, query.get("view") || "all", query.get("at"));
  await page.load(page.at);
  return page;
}

class ReplayPage {
  constructor(main, id, view, at) {
    this.main = main;
    this.id = id;
    this.view = view;
    this.at = at === null ? null : Number(at);
    this.data = null;
    this.onKey = (e) => this.key(e);
    document.addEventListener("keydown", this.onKey);
    window.cardtableReplay = this;
  }

  async load(at) {
    const params = new URLSearchParams({ view: this.view });
    if (at !== null && at !== undefined) params.set("at", String(at));
    try {
      this.data = await api(`/api/replays/${encodeURIComponent(this.id)}?${params}`);
    } catch (err) {
      if (!this.data) throw err;
      say(err.message, "error");
      return;
    }
    this.at = this.data.at;
    history.replaceState({}, "", `/replay/${encodeURIComponent(this.id)}?view=${this.view}&at=${this.at}`);
    this.draw();
  }

  go(at) {
    const n = Math.max(0, Math.min(this.data.moves, at));
    if (n !== this.at) this.load(n).then(() => announce(this.moveText()));
  }

  key(e) {
    if (!document.body.contains(this.main) || document.body.dataset.state !== "replay") {
      document.removeEventListener("keydown", this.onKey);
      return;
    }
    const target = e.target;
    if (target && (target.tagName === "INPUT" || target.tagName === "SELECT" || target.tagName === "TEXTAREA")) return;
    const moves = { ArrowLeft: this.at - 1, ArrowRight: this.at + 1, Home: 0, End: this.data.moves };
    if (e.key in moves && !e.altKey && !e.ctrlKey && !e.metaKey) {
      e.preventDefault();
      this.go(moves[e.key]);
    }
  }

  moveText() {
    const d = this.data;
    if (d.at === 0) return "The deal: no move yet.";
    return `Move ${d.at} of ${d.moves}: ${d.log[d.at - 1]}.`;
  }

  draw() {
    const d = this.data;
    document.title = `${d.title} replay — cardtable`;
    const views = [...d.seats.map((s, i) => [String(i), `${s.name}'s seat`]), ["spectator", "A spectator's seat"], ["all", "Every card shown"]];
    const viewSelect = el("select", { id: "replay-view", onchange: (e) => { this.view = e.target.value; this.load(this.at); } },
      views.map(([value, text]) => el("option", { value, selected: value === String(d.view), text })));
    const slider = el("input", { id: "replay-at", type: "range", min: 0, max: d.moves, value: d.at, "aria-valuetext": this.moveText(),
      onchange: (e) => this.go(Number(e.target.value)) });
    const button = (id, text, label, at, disabled) => el("button", { type: "button", id, text, title: label, disabled, onclick: () => this.go(at) });
    const controls = el("div", { class: "toolbar replay-controls" },
      button("replay-first", "Start", "To the deal", 0, d.at === 0),
      button("replay-back", "◀ Back", "One move back", d.at - 1, d.at === 0),
      button("replay-forward", "Forward ▶", "One move forward", d.at + 1, d.at === d.moves),
      button("replay-last", "End", "To the end", d.moves, d.at === d.moves),
      el("label", { for: "replay-at", text: "Move" }), slider,
      el("span", { id: "replay-step", text: `${d.at} / ${d.moves}` }),
      el("label", { for: "replay-view", text: "Seen from" }), viewSelect);
    const seats = d.seats.map((s) => (s.kind === "bot" ? `${s.name} (${s.bot} bot)` : s.name)).join(", ");
    const head = el("div", {},
      el("h1", { text: `${d.title} replay` }),
      el("p", { text: `${seats}${d.rated ? " · rated" : ""} · ended ${new Date(d.ended * 1000).toLocaleString()}` }));
    const now = el("p", { id: "replay-move", class: "turn", text: this.moveText() });
    const log = el("ol", { class: "log replay-log", id: "replay-log" }, d.log.map((line, i) => el("li", { "aria-current": i + 1 === d.at ? "step" : null },
      el("button", { type: "button", class: "link", "data-at": i + 1, text: line, onclick: () => this.go(i + 1) }))));
    const result = d.result ? el("p", { id: "replay-result", text: d.result.reason }) : null;
    const page = el("section", { class: "replay table-page" }, head, controls, now, board(d.table),
      el("div", { class: "side" },
        el("p", { class: "turn", text: d.table.turn }),
        el("ul", { class: "seats-list" }, d.table.lines.map((line) => el("li", { text: line }))),
        result,
        el("h2", { text: "Every pile" }), pilesInWords(d.table),
        el("h2", { text: "Moves" }), log));
    const focused = document.activeElement && document.activeElement.id;
    this.main.replaceChildren(page);
    document.body.dataset.state = "replay";
    document.body.dataset.at = String(d.at);
    const current = log.querySelector("[aria-current]");
    if (current) log.scrollTop = Math.max(0, current.offsetTop - log.offsetTop - log.clientHeight / 2);  // the list only, not the page
    if (focused) { const again = document.getElementById(focused); if (again && !again.disabled) again.focus(); }
  }
}

// The table: each pile where the server says it lies (x, y in card widths and rows), its cards
// fanned to the right or stacked (with their number).
function board(table) {
  const node = el("div", { class: "board replay-board", role: "img", "aria-label": "The table (every pile is listed in words below)" });
  const draw = () => {
    const width = node.clientWidth || 600;
    const card = Math.min(90, width / (table.width + 0.3));
    const row = card * CARD_RATIO * 1.3;
    const rows = Math.max(...table.piles.map((p) => p.y)) + 1;
    node.style.height = `${rows * row + card * 0.2}px`;
    const parts = [];
    for (const pile of table.piles) {
      const x = pile.x * card + card * 0.15;
      const y = pile.y * row + card * 0.1;
      const spread = pile.fan === "right" ? Math.min(card * 0.35, (width - x - card) / Math.max(1, pile.cards.length - 1)) : 0;
      const box = el("div", { class: "pile" });
      box.style.cssText = `left:${x}px;top:${y}px;width:${card}px;height:${card * CARD_RATIO}px`;
      parts.push(box);
      const shown = spread ? pile.cards : pile.cards.slice(-1);
      shown.forEach((c, i) => {
        const face = el("div", { class: `card${c.up ? " shown" : ""}` });
        face.innerHTML = c.up ? cardSVG(c.face) : backSVG(table.back);
        face.style.cssText = `left:${x + i * spread}px;top:${y}px;width:${card}px;height:${card * CARD_RATIO}px;z-index:${i + 1}`;
        parts.push(face);
      });
      if (!spread && pile.cards.length > 1) {
        const count = el("span", { class: "replay-count", text: pile.cards.length });
        count.style.cssText = `left:${x + card - 14}px;top:${y + card * CARD_RATIO - 6}px;z-index:300`;
        parts.push(count);
      }
      if (pile.caption) {
        const caption = el("span", { class: "caption", text: pile.caption });
        caption.style.cssText = `left:${x}px;top:${y + card * CARD_RATIO + 2}px;width:${card * (spread ? 2.2 : 1.1)}px`;
        parts.push(caption);
      }
    }
    node.replaceChildren(...parts);
  };
  requestAnimationFrame(draw);
  return node;
}

// Every pile in words: its name, then its cards bottom first (a card not shown: "face down").
function pilesInWords(table) {
  return el("ul", { class: "piles-words", id: "replay-piles" }, table.piles.map((pile) => {
    const cards = pile.cards.map((c) => (c.up ? cardLabel(c.face) : "face down"));
    const text = cards.length ? cards.join(", ") : "empty";
    return el("li", { "data-pile": pile.name }, el("strong", { text: `${pile.label}: ` }), text);
  }));
}
