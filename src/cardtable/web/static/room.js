// A room of a multi-player game: the lobby (seats, names, the invite link, start), then the
// table, over one WebSocket. The server decides everything; this page shows its snapshots.
// A room where every other seat is a bot (one person against bots) starts at once and also
// offers what a one-player table does: undo, redo, restart, a suggested move, a new game.
// The socket says who it is in its first message (the seat token kept by this browser, or
// the key of the invite link, /room/CODE#key=K); the room's clock and its seats' state
// (a bot playing for someone out of time, a seat the creator may free) show in a bar.
import { Table } from "./table.js";
import { api, botSeat, confirmDialog, el, newRoom, say } from "./util.js";

const tokenKey = (code) => `cardtable.room.${code}`;
const inviteKey = (code) => `cardtable.roomkey.${code}`;

// The key of the room's invite link: from the address (#key=K), kept for later visits.
function roomKey(code) {
  const key = new URLSearchParams(location.hash.slice(1)).get("key");
  if (key) localStorage.setItem(inviteKey(code), key);
  return key || localStorage.getItem(inviteKey(code)) || "";
}

// The invite link a snapshot names (its code and key), as a full address.
function inviteLink(s) {
  return `${location.origin}${s.invite || `/room/${s.code}`}`;
}

// A number of seconds as m:ss (or h:mm:ss).
function clockText(seconds) {
  const s = Math.max(0, Math.ceil(seconds));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const pad = (n) => String(n).padStart(2, "0");
  return h ? `${h}:${pad(m)}:${pad(s % 60)}` : `${m}:${pad(s % 60)}`;
}

// The room's clock in words: whose time runs and how much is left (counted down here
// from the snapshot's "left", as of when it came).
function clockLine(s, received) {
  const c = s.clock;
  if (!c) return "";
  const limit = c.limit >= 86400 ? `${c.limit / 86400} day` : c.limit >= 3600 ? `${c.limit / 3600} h` : c.limit >= 60 ? `${c.limit / 60} min` : `${c.limit} s`;
  if (c.seat === null || c.left === null) return `Clock: ${limit} a move`;
  const who = c.seat === s.you ? "You have" : `${s.seats[c.seat].name || `Seat ${c.seat + 1}`} has`;
  const left = c.left - (Date.now() - received) / 1000;
  return `Clock: ${limit} a move · ${who} ${clockText(left)} left (then the ${c.bot} bot plays)`;
}

export function openRoom(main, code, go) {
  return new RoomPage(main, code.toUpperCase(), go);
}

class RoomPage {
  constructor(main, code, go) {
    this.main = main;
    this.code = code;
    this.go = go;
    this.table = null;
    this.closed = false;
    this.connect();
  }

  connect() {
    const token = localStorage.getItem(tokenKey(this.code)) || "";
    const key = roomKey(this.code);
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    this.socket = new WebSocket(`${scheme}://${location.host}/ws/rooms/${this.code}`);
    this.socket.onmessage = (e) => this.receive(JSON.parse(e.data));
    this.socket.onclose = (e) => {
      if (this.closed || !document.body.contains(this.main)) return;
      document.body.dataset.connection = "lost";
      say(e.code === 4429 ? "Too many at once: coming back in a moment…" : "Connection lost: coming back…", "error");
      setTimeout(() => { if (document.location.pathname.startsWith("/room/")) this.connect(); }, e.code === 4429 ? 5000 : 1500);
    };
    this.socket.onopen = () => {
      document.body.dataset.connection = "open";
      // Who this is (never in the URL), and coming back, the last move seen: the first snapshot's log tells every move since.
      const s = this.snapshot;
      const seen = s && s.status !== "lobby" ? { game_no: s.game_no, at: s.at } : {};
      this.socket.send(JSON.stringify({ type: "hello", token, key, ...seen }));
    };
    window.cardtableRoom = this;
  }

  send(message) {
    if (this.socket.readyState === WebSocket.OPEN) this.socket.send(JSON.stringify(message));
    else say("Not connected: wait a moment.", "error");
  }

  receive(message) {
    if (message.type === "joined") {
      localStorage.setItem(tokenKey(this.code), message.token);
      return;
    }
    if (message.type === "error") {
      say(message.error, "error");
      if (message.kind === "not-found") {
        this.closed = true;
        this.main.replaceChildren(el("section", { class: "problem" }, el("h1", { text: "No such room" }), el("p", { text: message.error }), el("p", {}, el("a", { href: "/", text: "Back to the games" }))));
        document.body.dataset.state = "error";
      }
      if (this.table) this.table.refused();
      return;
    }
    if (message.type === "hint") {
      if (this.table) this.table.hinted(message);
      return;
    }
    this.snapshot = message;
    this.received = Date.now();
    if (message.invite) localStorage.setItem(inviteKey(this.code), new URLSearchParams(message.invite.split("#")[1] || "").get("key") || "");
    if (message.status === "lobby" || !message.table) this.lobby(message);
    else this.play(message);
    this.roomBar(message);
  }

  roomBar(s) {
    // Above the lobby or the table: the clock, a bot playing for someone out of time (and
    // for you, the button that takes your seat back), and for the room's creator the seats
    // of people who left, to free or give to a bot.
    let bar = this.main.querySelector("#room-bar");
    if (!bar) {
      bar = el("div", { id: "room-bar", role: "status" });
      this.main.prepend(bar);
    }
    const parts = [];
    if (s.replay) parts.push(el("a", { id: "replay-link", class: "button", href: s.replay, text: "Replay this game" }));
    if (s.rated) parts.push(el("span", { id: "room-rated", text: "Rated game" }));
    if (s.clock) parts.push(el("span", { id: "room-clock" }));
    const you = s.you;
    for (const seat of s.seats) {
      if (!seat.stand_in) continue;
      if (seat.seat === you) {
        parts.push(el("span", { class: "stand-in" }, `Your time ran out: the ${seat.stand_in} bot plays for you. `,
          el("button", { type: "button", id: "take-back", class: "primary", text: "Take my seat back", onclick: () => this.send({ type: "back" }) })));
      } else {
        parts.push(el("span", { class: "stand-in", text: `The ${seat.stand_in} bot plays for ${seat.name || `seat ${seat.seat + 1}`} (out of time).` }));
      }
    }
    const creator = you !== null && s.seats[you] && s.seats[you].creator;
    if (creator) {
      for (const seat of s.seats) {
        if (seat.kind !== "human" || seat.seat === you || !(seat.away || !seat.taken)) continue;
        const who = seat.taken ? `${seat.name} left.` : `Seat ${seat.seat + 1} is free.`;
        parts.push(el("span", { class: "seat-left", "data-seat": seat.seat }, `${who} `,
          seat.taken ? el("button", { type: "button", class: "free-seat", text: "Free the seat", onclick: () => this.send({ type: "free-seat", seat: seat.seat }) }) : null, " ",
          el("button", { type: "button", class: "bot-seat", text: `Give it to ${s.clock ? s.clock.bot : "greedy"}`, onclick: () => this.send({ type: "bot-seat", seat: seat.seat, bot: s.clock ? s.clock.bot : "greedy" }) })));
      }
    }
    bar.replaceChildren(...parts);
    bar.hidden = parts.length === 0;
    this.tickClock();
  }

  tickClock() {
    // The clock counts down between snapshots (each brings the time left afresh).
    clearInterval(this.clockTimer);
    const node = this.main.querySelector("#room-clock");
    if (!node || !this.snapshot) return;
    const draw = () => {
      if (!document.body.contains(node)) { clearInterval(this.clockTimer); return; }
      node.textContent = clockLine(this.snapshot, this.received);
    };
    draw();
    this.clockTimer = setInterval(draw, 500);
  }

  lobby(s) {
    this.table = null;
    document.title = `${s.title} room ${s.code} — cardtable`;
    const link = inviteLink(s);
    const you = s.you;
    const creator = you !== null && s.seats[you].creator;
    const free = s.seats.filter((seat) => seat.kind === "human" && !seat.taken);
    const rows = s.seats.map((seat) => {
      const who = seat.kind === "bot" ? `${seat.name} (bot)` : seat.taken ? seat.name : "free";
      const item = el("li", { "data-seat": seat.seat }, el("strong", { text: `Seat ${seat.seat + 1}: ` }), who,
        seat.seat === you ? " — you" : "", seat.away ? " (away)" : "");
      if (!seat.taken && you === null) {
        const name = el("input", { name: "name", placeholder: "your name", "aria-label": `your name for seat ${seat.seat + 1}`, maxlength: 24 });
        const take = el("button", { type: "button", class: "primary", text: "Take this seat", onclick: () => {
          this.send({ type: "join", seat: seat.seat, name: name.value });
        } });
        item.append(" ", name, " ", take);
      }
      return item;
    });
    const page = el("section", { class: "room" },
      el("h1", { text: `${s.title} room ${s.code}` }),
      el("p", {}, "Invite friends with this link: ", el("a", { id: "invite", href: link.slice(location.origin.length), text: link }), " ",
        el("button", { type: "button", text: "Copy", onclick: () => navigator.clipboard && navigator.clipboard.writeText(link).then(() => say("Link copied.")) })),
      el("ul", { class: "seats-lobby" }, rows),
      creator ? el("p", {}, el("input", { type: "checkbox", id: "room-public", checked: s.public, onchange: (e) => this.send({ type: "public", public: e.target.checked }) }),
        " ", el("label", { for: "room-public", text: "Public: listed in the lobby, where anyone may take a free seat (the game then starts when every seat is taken)" }))
        : s.public ? el("p", { text: "A public room: it starts when every seat is taken." }) : null,
      creator ? el("button", { id: "start", type: "button", class: "primary", disabled: free.length > 0, text: free.length ? `Waiting for ${free.length} player${free.length > 1 ? "s" : ""}…` : "Start the game", onclick: () => this.send({ type: "start" }) })
        : el("p", { text: you === null ? (free.length ? "Pick a free seat to play, or stay to watch." : "All seats are taken: you are watching.") : "Waiting for the room's creator to start the game." }));
    this.main.replaceChildren(page);
    document.body.dataset.state = "lobby";
  }

  play(s) {
    const table = this.tableOf(s);
    if (!this.table || this.table.gameNo !== s.game_no) {
      this.table = new RoomTable(this.main, table, { name: s.game, levels: [], options: [], solo: s.solo }, this);
      this.table.gameNo = s.game_no;
    } else {
      this.table.show(table);
    }
    document.body.dataset.you = s.you === null ? "watching" : String(s.you);
  }

  tableOf(s) {
    // A snapshot in the shape the table page draws.
    const t = s.table;
    const you = s.you;
    const result = s.result;
    const names = t.names.map((n, i) => (i === you ? "You" : n));
    const reason = result ? result.reason : null;  // the game's own sentence for this seat
    const away = s.seats.filter((seat) => seat.away).map((seat) => `${names[seat.seat]} is away`);
    return {
      ...t, names, log: s.log, log_from: s.log_from, id: s.code, game: s.game, title: s.solo ? s.title : `${s.title} room ${s.code}`,
      label: `Room ${s.code}`, at: s.at, seat: you === null ? -1 : you,
      outcome: { won: Boolean(result && you !== null && result.winners.includes(you)), over: s.status === "over", score: 0, reason },
      can_undo: s.can_undo, can_redo: s.can_redo, finish: false, hints: s.hints, status: away, options: {}, deal: null, level: null,
      started: s.started, ended: s.ended, now: s.now,
    };
  }
}

class RoomTable extends Table {
  constructor(main, table, game, page) {
    super(main, table, game, page);
  }

  build(main) {
    super.build(main);
    const solo = this.game.solo;
    this.newGameLabel = solo ? "New game" : "Rematch";
    const hidden = solo ? ["finish"] : ["new", "restart", "undo", "redo", "solver", "finish"];
    for (const key of hidden) this.buttons[key].hidden = true;
    for (const id of ["open-deal", "deal-number", "level", "numbering"]) { const node = main.querySelector(`#${id}`); if (node) node.hidden = true; }
    this.notation.hidden = false;
  }

  get page() { return window.cardtableRoom; }

  rememberUrl() {}

  show(table) {
    super.show(table);
    const watching = table.seat === -1;
    const waiting = table.to_move !== table.seat && table.to_move !== null;  // a bot (or another person) is to play
    this.buttons.hint.hidden = watching;
    // A game over stays over (its replay shows every card): no restart, undo or redo.
    this.buttons.restart.disabled ||= waiting || Boolean(table.outcome && table.outcome.over);
    this.buttons.solver.disabled ||= waiting;
    this.notation.hidden = watching;
    document.getElementById("time").hidden = !this.game.solo;  // a room of people has no clock of its own
    if (this.pending && this.pending.action !== "hint" && (this.pending.action !== "move" || table.at !== this.pending.at)) {
      this.pending.resolve(true);
      this.pending = null;
    }
  }

  refused() {
    if (this.pending) { this.pending.resolve(false); this.pending = null; }
    this.draw();
  }

  hinted(message) {
    // The answer to a hint: the move the server's bot suggests for this seat.
    if (this.pending && this.pending.action === "hint") {
      this.pending.resolve({ ...this.table, hint: message.hint, hints: message.hints });
      this.pending = null;
    }
  }

  request(action, body) {
    // Over the socket: a move (its text, or cards dropped on a pile: the server reads the
    // drop), or (against bots) undo, redo, restart, hint; answered by the next snapshot (or,
    // for a hint, by its answer), or an error.
    const drop = action === "move" && !body.move && body.from !== undefined;
    if (!["move", "undo", "redo", "restart", "hint"].includes(action) || (action === "move" && !body.move && !drop)) return Promise.resolve(null);
    if (this.pending) return Promise.resolve(null);
    const at = this.table.at;
    const message = action !== "move" ? { type: action, at }
      : drop ? { type: "move", from: body.from, index: body.index, to: body.to, at } : { type: "move", move: body.move, at };
    return new Promise((resolve) => {
      this.pending = { action, at, resolve: (answer) => resolve(answer === true ? this.table : answer || null) };
      this.page.send(message);
    });
  }

  async send(body) {
    const ok = await this.request("move", body);
    if (!ok) this.draw();
    return Boolean(ok);
  }

  async restart() {
    // Against bots, a restart takes the game back to its deal: it is not counted.
    const t = this.table;
    if (t.at > 0 && !t.outcome.over && !(await confirmDialog("Restart? The moves of this game are taken back.", "Restart", "Keep playing"))) return;
    this.act("restart");
  }

  async newGame() {
    // With people: a rematch in this room. Against bots: a new room with the same seats
    // (the server counts a game left after a move as abandoned, as at a one-player table).
    const page = this.page;
    if (!this.game.solo) { page.send({ type: "rematch" }); return; }
    if (!(await this.leaveGame("New game"))) return;
    try {
      const room = await roomSummary(page.code);
      const seats = room.seats.map((seat) => (seat.kind === "human" ? { kind: "human" } : botSeat(seat.bot)));
      const options = { ...room.options };
      delete options.players;
      const name = room.seats.find((seat) => seat.creator)?.name || "Player";
      page.go(await newRoom({ game: room.game, name, seats, options }));
    } catch (err) {
      say(err.message, "error");
    }
  }
}

// A room's game, seats and options (GET /api/rooms/CODE), opened with this browser's seat
// token (or the invite link's key) in the X-Room-Key header: a code alone opens nothing.
async function roomSummary(code) {
  const secret = localStorage.getItem(tokenKey(code)) || localStorage.getItem(inviteKey(code)) || "";
  const response = await fetch(`/api/rooms/${code}`, { headers: { "X-Room-Key": secret } });
  const data = await response.json();
  if (!response.ok) throw new Error(data.error || `error ${response.status}`);
  return data;
}
