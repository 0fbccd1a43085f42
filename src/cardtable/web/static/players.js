// The pages of people playing each other: the lobby (public rooms with a free seat, and "play
// now"), the ratings (people's ratings and the bots' fixed ones) and "you" (the display
// name, the ratings, and the link that carries this browser's identity to another device).
import { api, el, games, say } from "./util.js";

// A table in a box that scrolls sideways on a narrow screen (reachable by keyboard: it takes focus).
function table(head, rows, caption, label) {
  return el("div", { class: "scroll", tabindex: "0", role: "region", "aria-label": `${label || caption || "table"} (scrolls sideways)` }, el("table", {}, caption ? el("caption", { text: caption }) : null,
    el("thead", {}, el("tr", {}, head.map((h) => el("th", { scope: "col", text: h })))),
    el("tbody", {}, rows)));
}

// Keep a seat token and an invite key in this browser, as a new room's are (util.js newRoom).
function keep(room) {
  if (room.token) localStorage.setItem(`cardtable.room.${room.code}`, room.token);
  localStorage.setItem(`cardtable.roomkey.${room.code}`, room.key);
}

// --- the lobby -------------------------------------------------------------------------

export async function lobby(main, go) {
  document.title = "Lobby — cardtable";
  const [{ games: list, paces }, me] = await Promise.all([games(), api("/api/me")]);
  const several = list.filter((g) => g.players !== "1");
  const game = el("select", { id: "now-game", name: "game" }, several.map((g) => el("option", { value: g.name, text: g.title })));
  const players = el("select", { id: "now-players", name: "players" });
  const sizes = () => {
    const g = several.find((x) => x.name === game.value) || several[0];
    players.replaceChildren(...Array.from({ length: g.seats[1] - g.seats[0] + 1 }, (_, i) => el("option", { value: g.seats[0] + i, text: `${g.seats[0] + i} players` })));
  };
  game.addEventListener("change", sizes);
  sizes();
  const name = el("input", { id: "now-name", name: "name", maxlength: 24, required: true, value: me.name || localStorage.getItem("cardtable.name") || "", autocomplete: "nickname" });
  const pace = el("select", { id: "now-pace", name: "pace" }, (paces || []).map((p) => el("option", { value: p.name, selected: p.name === "2m", text: p.text })));
  const form = el("form", { class: "play-now game-card", id: "play-now" },
    el("h2", { text: "Play now" }),
    el("p", { text: "A seat in a public room of that size, or a new public room if none is waiting. It starts when every seat is taken; its games are rated." }),
    el("div", { class: "fields" },
      el("label", { for: "now-game", text: "game" }), game,
      el("label", { for: "now-players", text: "players" }), players,
      el("label", { for: "now-name", text: "your name" }), name,
      el("label", { for: "now-pace", text: "clock (a new room's)" }), pace),
    el("div", { class: "actions" }, el("button", { type: "submit", class: "primary", id: "play-now-button", text: "Play now" })));
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    try {
      localStorage.setItem("cardtable.name", name.value);
      const room = await api("/api/play-now", { game: game.value, players: Number(players.value), name: name.value, pace: pace.value });
      keep(room);
      go(room.link);
    } catch (err) {
      say(err.message, "error");
    }
  });
  const rooms = el("div", { id: "lobby-rooms" });
  const page = el("section", { class: "lobby" }, el("h1", { text: "Lobby" }), form,
    el("h2", { text: "Public rooms waiting for players" }), rooms,
    el("p", {}, el("a", { href: "/ratings", text: "Ratings" }), " · ", el("a", { href: "/me", text: "Your name, ratings and identity link" })));
  main.replaceChildren(page);
  const refresh = async () => {
    if (!document.body.contains(rooms)) { clearInterval(timer); return; }
    const { rooms: open } = await api("/api/lobby");
    if (!open.length) {
      rooms.replaceChildren(el("p", { text: "No public room is waiting. Use “Play now” to open one, or make a room public from the home page." }));
      return;
    }
    rooms.replaceChildren(table(["Game", "Seats taken", "Players", "Clock", "Rated", "Join"], open.map((r) =>
      el("tr", { "data-code": r.code },
        el("th", { scope: "row", text: `${r.title} (${r.code})` }), el("td", { text: `${r.taken} of ${r.seats}` }),
        el("td", { text: r.names.join(", ") }), el("td", { text: r.clock }), el("td", { text: r.rated ? "rated" : "not rated" }),
        el("td", {}, el("a", { href: r.link, class: "button", text: "Join", "aria-label": `Join room ${r.code}` }))))));
  };
  const timer = setInterval(() => refresh().catch(() => {}), 5000);
  await refresh();
  document.body.dataset.state = "lobby-list";
}

// --- the ratings ----------------------------------------------------------------------

export async function ratings(main) {
  const query = new URLSearchParams(location.search);
  const data = await api(`/api/ratings${query.get("game") ? `?game=${encodeURIComponent(query.get("game"))}` : ""}`);
  document.title = `${data.title} ratings — cardtable`;
  let rank = 0;
  const rows = data.rows.map((r) => {
    if (!r.bot) rank += 1;
    return el("tr", { class: r.you ? "you" : r.bot ? "bot" : null, "data-bot": r.bot },
      el("td", { text: r.bot ? "–" : String(rank) }),
      el("th", { scope: "row", text: r.you ? `${r.name} (you)` : r.name }),
      el("td", { text: r.rating.toFixed(1) }), el("td", { text: r.mu.toFixed(1) }), el("td", { text: r.sigma.toFixed(1) }),
      el("td", { text: r.bot ? `${r.games} (measured)` : r.games }));
  });
  const people = data.rows.filter((r) => !r.bot).length;
  main.replaceChildren(el("section", { class: "ratings" },
    el("h1", { text: `${data.title} ratings` }),
    people ? null : el("p", { text: "Nobody has finished a rated game yet: the bots show where a newcomer starts (a rating of 0)." }),
    table(["Rank", "Player", "Rating", "μ (skill)", "σ (doubt)", "Rated games"], rows, "People and bots by rating"),
    el("dl", { class: "explain" },
      el("dt", { text: "Rating" }), el("dd", { text: "μ − 3σ (OpenSkill, Plackett-Luce): the skill the server is almost sure you have. It starts at 0 and rises as you win and as the server grows sure of you." }),
      el("dt", { text: "Bots" }), el("dd", { text: "Fixed ratings, measured by rated games among the bots. A rated game against a bot moves your rating, never the bot's." }),
      el("dt", { text: "Rated games" }), el("dd", { text: "Rooms of people are rated unless their creator says otherwise; a room with bots is rated only if its creator chooses it. A rated game offers no undo or hint." })),
    el("p", {}, el("a", { href: "/me", text: "Your name, ratings and identity link" }), " · ", el("a", { href: "/lobby", text: "Lobby" }))));
  document.body.dataset.state = "ratings";
}

// --- you -------------------------------------------------------------------------------

export async function me(main, go) {
  document.title = "You — cardtable";
  let data = await api("/api/me");
  const carried = new URLSearchParams(location.hash.slice(1)).get("id");
  const page = el("section", { class: "me" }, el("h1", { text: "You" }));
  if (carried && carried !== data.id) {
    page.append(el("div", { class: "adopt", id: "adopt" },
      el("p", { text: "This link carries a player's identity from another browser. Use it here? This browser then plays as that player (its games, statistics and ratings); its own identity is left behind." }),
      el("button", { type: "button", class: "primary", id: "adopt-yes", text: "Use this identity here", onclick: async () => {
        try {
          data = await api("/api/me/adopt", { id: carried });
          history.replaceState({}, "", "/me");
          say("This browser now plays as that identity.");
          go("/me", true);
        } catch (err) { say(err.message, "error"); }
      } }), " ",
      el("button", { type: "button", id: "adopt-no", text: "No", onclick: () => go("/me", true) })));
  }
  const name = el("input", { id: "me-name", name: "name", maxlength: 24, value: data.name, autocomplete: "nickname" });
  const form = el("form", { class: "me-name" }, el("label", { for: "me-name", text: "Your display name " }), name, " ",
    el("button", { type: "submit", text: "Save" }));
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    try { data = await api("/api/me", { name: name.value }); localStorage.setItem("cardtable.name", data.name); say("Name saved."); } catch (err) { say(err.message, "error"); }
  });
  const link = `${location.origin}${data.link}`;
  page.append(form,
    el("h2", { text: "Your ratings" }),
    data.ratings.length ? table(["Game", "Rating", "μ", "σ", "Rated games"], data.ratings.map((r) => el("tr", {},
      el("th", { scope: "row" }, el("a", { href: `/ratings?game=${r.game}`, text: r.title })), el("td", { text: r.rating.toFixed(1) }),
      el("td", { text: r.mu.toFixed(1) }), el("td", { text: r.sigma.toFixed(1) }), el("td", { text: r.games }))), null, "your ratings") : el("p", { text: "No rated game finished yet." }),
    el("h2", { text: "Your recent games" }),
    data.games.length ? table(["Game", "Players", "Ranks", "Ended", "Replay"], data.games.map((g) => el("tr", {},
      el("th", { scope: "row", text: `${g.title}${g.rated ? " (rated)" : ""}` }), el("td", { text: g.seats.join(", ") }),
      el("td", { text: g.ranks.join(", ") }), el("td", { text: new Date(g.ended * 1000).toLocaleString() }),
      el("td", {}, el("a", { href: g.replay, class: "replay", text: "Replay" }))), null, "your recent games"))
      : el("p", { text: "No game of a room finished yet." }),
    el("h2", { text: "Play on another device" }),
    el("p", { text: "You have no account: this browser keeps a long random identity. Open this link on another device to play there as you (your games, statistics and ratings). Anyone with the link plays as you: keep it to yourself." }),
    el("p", {}, el("a", { id: "identity-link", href: data.link, text: link }), " ",
      el("button", { type: "button", text: "Copy", onclick: () => navigator.clipboard && navigator.clipboard.writeText(link).then(() => say("Link copied.")) })),
    el("p", {}, el("a", { href: "/ratings", text: "Ratings" }), " · ", el("a", { href: "/lobby", text: "Lobby" })));
  main.replaceChildren(page);
  document.body.dataset.state = "me";
}
