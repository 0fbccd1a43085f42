// The daily deal: the daily page (each game and mode, today's status, play, streak), a day's
// leaderboard, and what a daily deal's table adds (give up, the leaderboard entry, the name).
// The server chooses the deal, keeps its number until the deal is won or given up, and makes
// every leaderboard entry itself from the table it owns: this file only asks and shows.
import { renderTable } from "./table.js";
import { api, cap, confirmDialog, el, games, say } from "./util.js";

const STATUS = { new: "Not started", playing: "In progress", won: "Won", "given up": "Given up" };

function longDay(day) {
  const [y, m, d] = day.split("-").map(Number);
  return new Date(Date.UTC(y, m - 1, d)).toLocaleDateString("en-GB", { weekday: "long", day: "numeric", month: "long", year: "numeric", timeZone: "UTC" });
}

export function clock(s) {
  if (s === null || s === undefined) return "–";
  const m = Math.floor(s / 60);
  return `${m}:${String(Math.floor(s % 60)).padStart(2, "0")}`;
}

function dayPicker(data, target, extra = {}) {
  // A date box (from the first day to today) and the last seven days as links.
  const form = el("form", { class: "day-picker" },
    el("label", { for: "day", text: "Day" }),
    el("input", { type: "date", id: "day", name: "day", value: data.day, min: data.first_day || "2026-01-01", max: data.today, required: true }),
    el("button", { type: "submit", text: "Show" }));
  form.addEventListener("submit", (e) => {
    e.preventDefault();
    const query = new URLSearchParams({ ...extra, day: form.querySelector("input").value });
    window.cardtableGo(`${target}?${query}`);
  });
  return form;
}

function nameForm(name, after) {
  // The display name of this browser on the leaderboards (no account: kept for this browser).
  const form = el("form", { class: "name-form" },
    el("label", { for: "daily-name", text: "Your name on the leaderboards" }),
    el("input", { id: "daily-name", name: "name", maxlength: 24, value: name || "", autocomplete: "nickname", required: true }),
    el("button", { type: "submit", class: "primary", text: name ? "Change" : "Save" }));
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    try {
      const saved = await after(form.querySelector("input").value);
      say(`Your name on the leaderboards: ${saved}.`);
    } catch (err) {
      say(err.message, "error");
    }
  });
  return form;
}

// --- the daily page -------------------------------------------------------------

export async function dailyPage(main) {
  const query = new URLSearchParams(location.search);
  const data = await api(`/api/daily${query.get("day") ? `?day=${encodeURIComponent(query.get("day"))}` : ""}`);
  const today = data.day === data.today;
  document.title = `Daily deal, ${longDay(data.day)} — cardtable`;
  const page = el("section", { class: "daily" }, el("h1", { text: today ? "Today's deals" : `Deals of ${longDay(data.day)}` }));
  page.append(el("p", { class: "daily-intro", text: `${longDay(data.day)}: a ${data.level} deal for each game, the same for everyone, proved winnable. Its number is shown once you win it or give up.` }));
  const s = data.streak;
  page.append(el("p", { class: "streak", id: "streak" },
    el("strong", { text: `Streak: ${s.current} day${s.current === 1 ? "" : "s"} in a row` }),
    ` · best ${s.best} · ${s.days} day${s.days === 1 ? "" : "s"} played`));
  // One card a game and mode: its status (the deal number once won or given up), play, leaderboard.
  const cards = data.modes.map((m) => {
    const action = m.status === "won" || m.status === "given up" ? "Look at it" : m.status === "playing" ? "Continue" : "Play";
    const status = `${STATUS[m.status]}${m.status === "playing" ? ` (${m.moves} moves)` : ""}${m.status === "won" && m.clean ? " · clean" : ""}`;
    return el("li", { class: "daily-card", "data-mode": m.mode },
      el("h2", { text: m.title }),
      el("p", { class: `daily-status ${m.status.replace(" ", "-")}`, text: status }),
      el("p", { class: "daily-number", text: m.deal === null ? "Deal number: hidden until finished" : `Deal number: ${m.deal}` }),
      el("p", { class: "actions" },
        el("a", { class: "button primary", href: m.link, "aria-label": `${action}: ${m.title}`, text: action }),
        el("a", { href: m.leaderboard, "aria-label": `Leaderboard of ${m.title} (${m.entries} ${m.entries === 1 ? "entry" : "entries"})`, text: `Leaderboard (${m.entries})` })));
  });
  page.append(el("ul", { class: "daily-cards" }, cards));
  page.append(el("h2", { class: "daily-part", text: "Other days" }), dayPicker(data, "/daily"),
    el("ul", { class: "recent-days" }, data.recent.map((d) => el("li", {},
      el("a", { href: `/daily?day=${d}`, "aria-current": d === data.day ? "page" : null, text: d === data.today ? "Today" : longDay(d) })))));
  page.append(el("p", { class: "explain", text: "A past day's deal can still be played; a win after its day is listed on the leaderboard as played late, after the day's own." }));
  page.append(el("h2", { class: "daily-part", text: "Your name" }), nameForm(data.name, async (name) => (await api("/api/daily/name", { name })).name));
  main.replaceChildren(page);
  document.body.dataset.state = "daily";
}

// --- a day's leaderboard ---------------------------------------------------------

export async function leaderboardPage(main) {
  const query = new URLSearchParams(location.search);
  const { modes, today, first_day: first } = await api("/api/daily");
  const mode = query.get("mode") || modes[0].mode;
  const params = new URLSearchParams({ mode });
  if (query.get("day")) params.set("day", query.get("day"));
  const data = await api(`/api/daily/leaderboard?${params}`);
  document.title = `Leaderboard: ${data.title}, ${longDay(data.day)} — cardtable`;
  const page = el("section", { class: "leaderboard" }, el("h1", { text: `Leaderboard: ${data.title}` }));
  page.append(el("p", { text: `${longDay(data.day)}, a ${data.level} deal${data.deal === null ? " (its number is shown once you win it or give up)" : `: deal ${data.deal}`}.` }));
  const choose = el("form", { class: "day-picker" },
    el("label", { for: "board-mode", text: "Game" }),
    el("select", { id: "board-mode", name: "mode" }, modes.map((m) => el("option", { value: m.mode, selected: m.mode === data.mode, text: m.title }))),
    el("label", { for: "day", text: "Day" }),
    el("input", { type: "date", id: "day", name: "day", value: data.day, min: first, max: today, required: true }),
    el("button", { type: "submit", text: "Show" }));
  choose.addEventListener("submit", (e) => {
    e.preventDefault();
    const form = new FormData(choose);
    window.cardtableGo(`/leaderboard?${new URLSearchParams({ mode: form.get("mode"), day: form.get("day") })}`);
  });
  page.append(choose);
  const onDay = data.entries.filter((e) => !e.late);
  const late = data.entries.filter((e) => e.late);
  const board = (entries, caption, id) => el("div", { class: "scroll", tabindex: "0", role: "region", "aria-label": `${caption} (scrolls sideways)` },
    el("table", { class: "board-table", id },
      el("caption", { text: caption }),
      el("thead", {}, el("tr", {}, ["Rank", "Name", "Moves", "Time", "Score", "Clean"].map((h) => el("th", { scope: "col", text: h })))),
      el("tbody", {}, entries.map((e) => el("tr", { class: e.you ? "you" : "" },
        el("td", { text: e.rank }), el("th", { scope: "row", text: e.you ? `${e.name} (you)` : e.name }),
        el("td", { text: e.moves }), el("td", { text: clock(e.seconds) }),
        el("td", { text: e.score ? e.score.text : "–" }),
        el("td", { text: e.clean ? "clean" : "–" }))))));
  if (!onDay.length) page.append(el("p", { class: "empty", text: "No one has won this deal on its day yet." }));
  else page.append(board(onDay, `Won on ${data.day}, by moves then time`, "board-day"));
  if (late.length) page.append(board(late, "Played late (won after the day), by moves then time", "board-late"));
  page.append(el("p", {}, el("a", { class: "button primary", href: `/daily/play?mode=${data.mode}&day=${data.day}`, text: "Play this deal" }), " ",
    el("a", { href: `/daily?day=${data.day}`, text: "All deals of this day" })));
  page.append(el("dl", { class: "explain" },
    el("dt", { text: "Ranking" }), el("dd", { text: "Fewest moves first, then the shortest time from the first move to the win. The server replays every win before it is listed: a score cannot be sent." }),
    el("dt", { text: "Score" }), el("dd", { text: `The game's own scoring of the win (${data.scoring}), shown for each entry; it does not change the ranking.` }),
    el("dt", { text: "Clean" }), el("dd", { text: "Won with no hint, no undo (or restart) and no autocomplete." }),
    el("dt", { text: "Played late" }), el("dd", { text: "Won after the deal's day (UTC): listed apart, after the day's own." })));
  main.replaceChildren(page);
  document.body.dataset.state = "leaderboard";
}

// --- a daily deal's table ---------------------------------------------------------------

export async function playDaily(main, go) {
  const query = new URLSearchParams(location.search);
  const { games: list } = await games();
  const table = query.get("table")
    ? await api(`/api/tables/${encodeURIComponent(query.get("table"))}`)
    : await api("/api/daily/play", { mode: query.get("mode") || "", day: query.get("day") || null });
  const game = list.find((g) => g.name === table.game);
  renderTable(main, table, game, go);
}

// What a daily deal's table adds to the table page: no new game or deal box (the deal is the
// day's), Give up (the deal ends as lost and its number is shown), and at a win the
// leaderboard: the entry the server made, and the name asked for at the first entry.
export function dailyAtTable(view, table) {
  const d = table.daily;
  view.buttons.new.hidden = true;
  const box = view.settings.querySelector(".deal-box");
  if (box) box.hidden = true;
  let giveUp = document.getElementById("give-up");
  if (!giveUp) {
    giveUp = el("button", { type: "button", id: "give-up", text: "Give up", title: "End this daily deal as lost and see its number",
      onclick: async () => {
        if (await confirmDialog("Give up this daily deal? It ends as lost, and its deal number is shown.", "Give up", "Keep playing")) view.act("give-up");
      } });
    view.buttons.restart.after(giveUp);
    view.buttons.new.after(el("a", { class: "button", id: "daily-link", href: `/daily?day=${d.day}`, text: "Daily deals" }));
  }
  giveUp.disabled = d.status === "won" || d.status === "given up";
  const bannerNew = document.getElementById("banner-new");
  if (bannerNew) bannerNew.replaceWith(el("a", { class: "button", id: "banner-daily", href: `/daily?day=${d.day}`, text: "Back to the daily deals" }));
  if (!table.outcome.won) return;
  const panel = el("div", { class: "daily-entry", id: "daily-entry" });
  const board = el("a", { href: d.leaderboard, id: "to-leaderboard", text: "See the leaderboard" });
  if (d.name) panel.append(el("span", { text: `On the leaderboard as ${d.name}${d.clean ? ", clean" : ""}. ` }), board);
  else {
    panel.append(el("span", { text: "Your win is kept. Give a name to be listed on the leaderboard:" }),
      nameForm(null, async (name) => {
        const data = await api("/api/daily/enter", { table: table.id, name });
        view.show(data);
        return data.daily.name;
      }), board);
  }
  view.banner.append(panel);
}
