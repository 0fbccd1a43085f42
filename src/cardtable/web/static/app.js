// The cardtable front end: pages (home, table, statistics, rules) over the JSON API.
// The server owns every game: this file draws what it is sent and sends moves back.
import { newTableRequest, renderTable } from "./table.js";
import { openRoom } from "./room.js";
import { openReplay } from "./replay.js";
import { lobby, me, ratings } from "./players.js";
import { dailyPage, leaderboardPage, playDaily } from "./daily.js";
import { api, botSeat, cap, el, games, newRoom, say } from "./util.js";
import { applyTheme, bank, settings } from "./prefs.js";

applyTheme();  // the colours this browser chose (prefs.js), on every page

const main = document.getElementById("main");

export function go(url, replace = false) {
  if (replace) history.replaceState({}, "", url);
  else history.pushState({}, "", url);
  route();
}
window.cardtableGo = go;

// --- home -----------------------------------------------------------------

async function home() {
  document.title = "cardtable";
  const [{ games: list, paces }, { tables }] = await Promise.all([games(), api("/api/tables")]);
  const page = el("section", { class: "home" }, el("h1", { text: "Choose a game" }),
    el("p", { class: "daily-call" }, el("a", { class: "button primary", href: "/daily", id: "home-daily", text: "Today's daily deals" }),
      el("span", { text: "The same deal for everyone, each game, every day." }),
      el("a", { href: "/leaderboard", id: "home-leaderboards", text: "Leaderboards" })));
  if (tables.length) {
    page.append(el("h2", { text: "Continue" }), el("ul", { class: "continue" }, tables.map((t) =>
      el("li", {}, el("a", { href: t.link, text: `${title(list, t.game)} — ${t.label}, ${t.moves} moves` })))));
  }
  const grid = el("div", { class: "games" });
  for (const game of list) grid.append(gameCard(game, paces || []));
  page.append(grid);
  main.replaceChildren(page);
  document.body.dataset.state = "home";
}

function title(list, name) {
  return (list.find((g) => g.name === name) || { title: name }).title;
}

function gameCard(game, paces) {
  const form = el("form", { class: "game-card", "data-game": game.name });
  form.append(el("h2", { text: game.title }), el("p", { class: "players", text: `${game.players} player${game.players === "1" ? "" : "s"}` }));
  const fields = el("div", { class: "fields" });
  for (const option of game.options) {
    if (option.name === "numbering") continue;
    const id = `${game.name}-${option.name}`;
    let input;
    if (option.seat) {
      // A seat (Deserto's first player): the seats as the card labels them, seat 1 first.
      input = el("select", { id, name: option.name, "data-seat": "" });
    } else if (option.choices.length && option.kind !== "int") {
      input = el("select", { id, name: option.name }, option.choices.map((c) => el("option", { value: c, selected: c === option.default, text: c })));
    } else if (option.kind === "int" && option.choices.length && !option.choices.includes("unlimited")) {
      input = el("select", { id, name: option.name }, option.choices.map((c) => el("option", { value: c, selected: c === option.default, text: c })));
    } else {
      input = el("input", { id, name: option.name, value: option.default, size: 8 });
    }
    const words = option.seat ? `${option.name.replace(/_/g, " ")} player` : option.name.replace(/_/g, " ");
    fields.append(el("label", { for: id, title: option.help, text: words }), input);
  }
  if (game.levels.length) {
    const id = `${game.name}-level`;
    fields.append(el("label", { for: id, text: "level" }),
      el("select", { id, name: "level" }, game.levels.map((l) => el("option", { value: l, text: cap(l) }))));
  } else {
    // A multi-player game: seat 1 is yours; the game's bots (or a person to invite) in the others.
    const seats = el("div", { class: "seats" });
    const players = () => Number(form.querySelector("[name=players]")?.value || game.seats[0]);
    const draw = () => {
      for (const select of form.querySelectorAll("select[data-seat]")) {
        const chosen = Number(select.value || 0);
        select.replaceChildren(...Array.from({ length: players() }, (_, i) =>
          el("option", { value: i, selected: i === (chosen < players() ? chosen : 0), text: i ? `seat ${i + 1}` : "seat 1 (you)" })));
      }
      seats.replaceChildren(...Array.from({ length: players() - 1 }, (_, i) => {
        const id = `seat-${i + 2}`;
        return el("span", {}, el("label", { for: id, text: `seat ${i + 2}` }),
          el("select", { id, name: `seat${i + 2}` }, [...game.bots, "person"].map((b) => el("option", { value: b, selected: b === "greedy", text: b === "person" ? "a person (invite)" : b }))));
      }));
    };
    form.addEventListener("change", (e) => { if (e.target.name === "players") draw(); });
    setTimeout(draw);
    fields.append(el("span", { class: "seat-you", text: "seat 1: you" }), seats,
      el("label", { for: "room-name", text: "your name" }), el("input", { id: "room-name", name: "room-name", maxlength: 24, placeholder: "for an online room" }),
      el("label", { for: "room-pace", text: "clock" }), el("select", { id: "room-pace", name: "room-pace", title: "for an online room: the time a person has for a move (then a bot plays for them)" },
        paces.map((p) => el("option", { value: p.name, selected: p.name === "2m", text: p.text }))),
      ...roomChoices());
  }
  const room = game.levels.length ? null : el("button", { type: "button", id: "open-room", text: "Open an online room", onclick: () => openNewRoom(form, game) });
  form.append(fields, el("div", { class: "actions" },
    el("button", { type: "submit", class: "primary", text: game.levels.length ? "Play" : "Play against bots" }), room,
    el("a", { href: `/rules/${game.name}`, text: "Rules" })));
  form.addEventListener("submit", (e) => {
    e.preventDefault();
    const data = new FormData(form);
    if (!game.levels.length) {  // against bots: a room where every other seat is a bot, started at once
      if ([...data.entries()].some(([k, v]) => k.startsWith("seat") && v === "person")) { say("Seats for people are for online rooms: use “Open an online room”.", "error"); return; }
      openNewRoom(form, game, "Player");
      return;
    }
    const query = new URLSearchParams();
    for (const [key, value] of data.entries()) {
      if (key.startsWith("seat")) continue;
      if (key === "level" && value === "random") continue;
      const option = game.options.find((o) => o.name === key);
      if (option && String(option.default) === String(value)) continue;
      query.set(key, value);
    }
    query.set("new", "1");
    go(`/play/${game.name}?${query}`);
  });
  return form;
}


// A room's choices on a game card: listed in the lobby, rated (rooms of people are, unless told).
function roomChoices() {
  return [
    el("label", { for: "room-rated", text: "rated" }),
    el("select", { id: "room-rated", name: "room-rated" },
      [["auto", "if every seat is a person"], ["yes", "yes"], ["no", "no"]].map(([value, text]) => el("option", { value, text }))),
    el("label", { for: "room-public", text: "public" }),
    el("span", {}, el("input", { id: "room-public", name: "room-public", type: "checkbox" }), " listed in the lobby"),
  ];
}

async function openNewRoom(form, game, name = "") {
  // A room: the seats chosen on the card (people to invite, bots), the creator's name, the
  // clock (an online room's; a game against bots has none).
  const data = new FormData(form);
  const seats = [{ kind: "human" }, ...[...data.entries()].filter(([k]) => k.startsWith("seat")).map(([, v]) =>
    (v === "person" ? { kind: "human" } : botSeat(v)))];
  const options = {};
  for (const o of game.options) if (o.name !== "players" && data.has(o.name) && String(o.default) !== String(data.get(o.name))) options[o.name] = data.get(o.name);
  try {
    const pace = name ? "casual" : data.get("room-pace") || "casual";
    const rated = { yes: true, no: false }[data.get("room-rated")];
    const extra = { ...(rated === undefined ? {} : { rated }), ...(name ? {} : { public: data.get("room-public") === "on" }) };
    go(await newRoom({ game: game.name, name: data.get("room-name") || name, seats, options, pace, ...extra }));
  } catch (err) {
    say(err.message, "error");
  }
}

// /play/GAME of a multi-player game: its room against bots in progress, or a new one
// (seats=you,greedy,... and the game's options in the query; new=1 for a new one).
async function playRoom(game, query) {
  if (!query.has("new")) {
    const { tables } = await api("/api/tables");
    const open = tables.find((t) => t.game === game.name && t.link.startsWith("/room/"));
    if (open) { go(open.link, true); return; }
  }
  const names = (query.get("seats") || `you,${game.bots.includes("greedy") ? "greedy" : game.bots[0]}`).split(",");
  const seats = names.map((n) => (n === "you" ? { kind: "human" } : botSeat(n)));
  const options = {};
  for (const o of game.options) if (o.name !== "players" && query.has(o.name)) options[o.name] = query.get(o.name);
  // A seat in the address counts as the page labels seats: 1 is the first seat.
  for (const o of game.options.filter((o) => o.seat && query.has(o.name))) {
    const seat = Number(query.get(o.name));
    if (!Number.isInteger(seat) || seat < 1 || seat > seats.length) {
      throw Object.assign(new Error(`The ${o.name} player must be a seat from 1 to ${seats.length}, not ${query.get(o.name)}.`), { title: "This room cannot be opened" });
    }
    options[o.name] = seat - 1;
  }
  go(await newRoom({ game: game.name, name: "Player", seats, options }), true);
}

// --- a table ------------------------------------------------------------------

// /play/GAME?deal=N | level=L&seed=S | id=ID, plus the game's options: a URL that
// reopens a game (the id only in the browser that owns it).
async function play(name) {
  const query = new URLSearchParams(location.search);
  const { games: list } = await games();
  const game = list.find((g) => g.name === name);
  if (!game) throw Object.assign(new Error(`no game ${name}`), { status: 404 });
  if (game.players !== "1") { await playRoom(game, query); return; }
  let table = null;
  const id = query.get("id");
  if (id) {
    try { table = await api(`/api/tables/${encodeURIComponent(id)}`); } catch (err) { if (err.status !== 404) throw err; }
  }
  if (!table && !query.has("deal") && !query.has("level") && !query.has("new")) {
    const { tables } = await api("/api/tables");
    const open = tables.find((t) => t.game === name && t.link.startsWith("/play/"));  // not a daily deal's table
    if (open) table = await api(`/api/tables/${encodeURIComponent(open.id)}`);
  }
  if (!table) table = await api("/api/tables", newTableRequest(game, query));
  renderTable(main, table, game, go);
}

// --- statistics -----------------------------------------------------------------

function seconds(s) {
  if (s === null || s === undefined) return "–";
  const m = Math.floor(s / 60);
  return `${m}:${String(Math.round(s % 60)).padStart(2, "0")}`;
}

async function stats() {
  document.title = "Statistics — cardtable";
  const [{ rows }, { games: list }] = await Promise.all([api("/api/stats"), games()]);
  const page = el("section", { class: "stats" }, el("h1", { text: "Statistics" }));
  if (!rows.length) page.append(el("p", { text: "No game finished yet. Games count once they are won, lost, or left for a new one after a move." }));
  else {
    page.append(chart(rows, list));
    const head = ["Game", "Mode", "Level", "Played", "Won", "Win rate", "Streak", "Best streak", "Best time", "Average time", "Fewest moves", "Best score", "Average score", "Hints used"];
    page.append(el("div", { class: "scroll", tabindex: "0", role: "region", "aria-label": "statistics table (scrolls sideways)" }, el("table", {},
      el("thead", {}, el("tr", {}, head.map((h) => el("th", { scope: "col", text: h })))),
      el("tbody", {}, rows.map((r) => el("tr", {},
        el("th", { scope: "row", text: title(list, r.game) }), el("td", { text: r.mode_words }), el("td", { text: cap(r.level) }),
        el("td", { text: r.played }), el("td", { text: r.won }), el("td", { text: `${Math.round(r.win_rate * 100)}%` }),
        el("td", { text: r.current_streak }), el("td", { text: r.best_streak }), el("td", { text: seconds(r.best_time) }),
        el("td", { text: seconds(r.average_time) }), el("td", { text: r.fewest_moves ?? "–" }),
        el("td", { text: scoreText(r, "best") }), el("td", { text: scoreText(r, "average") }), el("td", { text: r.hints })))))));
    // The bank, when a game played here is scored by a scoring whose scores add up (Vegas).
    const banked = rows.map(chosenScoring).find((s) => s && s.bank);
    if (banked) page.append(el("p", { id: "bank", text: `${banked.title} bank in this browser: ${bank() < 0 ? `-$${-bank()}` : `$${bank()}`}.` }));
  }
  page.append(el("dl", { class: "explain" },
    el("dt", { text: "Played" }), el("dd", { text: "Games that ended: won; lost, when the table said the game was over; or left with moves made, which counts as lost: restarted, or left for another game of the same kind." }),
    el("dt", { text: "Streak" }), el("dd", { text: "Games won in a row, counted in the order they ended; a lost or left game starts it again from 0. Best streak is the longest so far." }),
    el("dt", { text: "Time" }), el("dd", { text: "From your first move to the winning move, for won games only. Average time is the mean over all won games." }),
    el("dt", { text: "Score" }), el("dd", {}, "By the scoring chosen for the game at its table, over every game played, won or not:",
      el("ul", {}, list.filter((g) => g.players === "1" && (g.scorings || []).length).map((g) => el("li", { text: `${g.title}: ${g.scorings.map((s) => `${s.title} (${s.rule})`).join("; or ")}.` })))),
    el("dt", { text: "Hints used" }), el("dd", { text: "Hints that gave a move; a hint that found nothing is not counted." })));
  main.replaceChildren(page);
  document.body.dataset.state = "stats";
}

function chosenScoring(row) {
  // A row's scoring as this browser chose it for the game (the game's first by default).
  const all = row.scores || [];
  return all.find((x) => x.name === settings().scoring[row.game]) || all[0];
}

function scoreText(row, which) {
  // A row's best or average score by the scoring this browser chose for the game.
  const s = chosenScoring(row);
  if (!s || s[which] === null || s[which] === undefined) return "–";
  if (which === "best" && s.best_text) return s.best_text;  // the server's words: "1 card", "-$37"
  const value = which === "average" ? Math.round(s[which] * 10) / 10 : s[which];
  if (s.unit === "$") return value < 0 ? `-$${-value}` : `$${value}`;
  return `${value} ${s.unit}`;
}

function chart(rows, list) {
  // One bar per game, mode and level: the win rate, with the number of games beside it.
  // Plain HTML, so a long name wraps instead of being cut.
  return el("figure", { class: "chart" },
    el("ul", { class: "bars", "aria-label": "Win rate per game, mode and level" }, rows.map((r) => {
      const name = `${title(list, r.game)}${r.level === "random" ? "" : ` · ${cap(r.level)}`}${r.mode === "standard" ? "" : ` (${r.mode_words})`}`;
      const rate = Math.round(r.win_rate * 100);
      return el("li", {},
        el("span", { class: "bar-name", text: name }),
        el("span", { class: "bar", "aria-hidden": "true" }, el("span", { class: "fill", style: `width:${rate}%` })),
        el("span", { class: "bar-value", text: `${rate}% of ${r.played}` }));
    })),
    el("figcaption", { text: "Win rate (green) per game and level" }));
}

// --- rules ------------------------------------------------------------------------

async function rules(name) {
  // The rules as a page for players, rendered by the server, with a picture of the table.
  const data = await api(`/api/rules/${encodeURIComponent(name)}`);
  document.title = `${data.title} rules — cardtable`;
  const page = el("article", { class: "rules" });
  page.innerHTML = data.html;
  // A wide table or code block scrolls on its own, and can be reached and scrolled by keyboard.
  for (const table of page.querySelectorAll("table")) {
    const box = el("div", { class: "scroll", tabindex: "0", role: "region", "aria-label": "table (scrolls sideways)" });
    table.replaceWith(box);
    box.append(table);
  }
  for (const pre of page.querySelectorAll("pre")) { pre.tabIndex = 0; pre.setAttribute("aria-label", "example (scrolls sideways)"); pre.setAttribute("role", "region"); }
  const heading = page.querySelector("h1");
  const picture = el("figure", { class: "layout-picture" });
  picture.innerHTML = data.layout;
  picture.append(el("figcaption", { text: `The table of ${data.title}, as the page lays it out.` }));
  const play = el("p", {}, el("a", { href: `/play/${data.game}`, class: "button primary", text: `Play ${data.title}` }));
  if (heading) heading.after(play, picture); else page.prepend(play, picture);
  main.replaceChildren(page);
  document.body.dataset.state = "rules";
}

// --- routing ------------------------------------------------------------------------

export async function route() {
  document.body.dataset.state = "loading";
  if (window.cardtableRoom) {  // leaving a room: its socket goes too
    window.cardtableRoom.closed = true;
    window.cardtableRoom.socket.close();
    window.cardtableRoom = null;
  }
  const parts = location.pathname.split("/").filter(Boolean).map(decodeURIComponent);
  try {
    if (parts[0] === "play" && parts[1]) await play(parts[1]);
    else if (parts[0] === "stats") await stats();
    else if (parts[0] === "daily" && parts[1] === "play") await playDaily(main, go);
    else if (parts[0] === "daily") await dailyPage(main);
    else if (parts[0] === "leaderboard") await leaderboardPage(main);
    else if (parts[0] === "rules" && parts[1]) await rules(parts[1]);
    else if (parts[0] === "room" && parts[1]) openRoom(main, parts[1], go);
    else if (parts[0] === "replay" && parts[1]) await openReplay(main, parts[1]);
    else if (parts[0] === "lobby") await lobby(main, go);
    else if (parts[0] === "ratings") await ratings(main);
    else if (parts[0] === "me") await me(main, go);
    else await home();
  } catch (err) {
    main.replaceChildren(el("section", { class: "problem" }, el("h1", { text: err.title || "This page could not be opened" }), el("p", { text: err.message }), el("p", {}, el("a", { href: "/", text: "Back to the games" }))));
    document.body.dataset.state = "error";
  }
}

document.addEventListener("click", (e) => {
  const link = e.target.closest("a[href^='/']");
  if (link && !e.ctrlKey && !e.metaKey && !e.shiftKey && e.button === 0) {
    e.preventDefault();
    go(link.getAttribute("href"));
  }
});
window.addEventListener("popstate", route);
route();
