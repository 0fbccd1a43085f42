// Small helpers shared by the pages: the JSON API, the message line, the screen reader's line,
// building elements.
const messageBox = document.getElementById("message");
const announceBox = document.getElementById("announce");

export async function api(path, body) {
  const init = body === undefined ? {} : {
    method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body),
  };
  const response = await fetch(path, init);
  let data;
  try { data = await response.json(); } catch { data = { error: `server error ${response.status}` }; }
  if (!response.ok) {
    const err = new Error(data.error || `error ${response.status}`);
    err.kind = data.kind; err.status = response.status; err.table = data.table;
    throw err;
  }
  return data;
}

export function say(text, kind = "info") {
  messageBox.textContent = text || "";
  messageBox.className = text ? `show ${kind}` : "";
  clearTimeout(say.timer);
  if (text) say.timer = setTimeout(() => { messageBox.className = ""; }, kind === "error" ? 6000 : 4000);
}

// What a screen reader says now (an aria-live region): each move in words, the end of a game.
// The same words twice in a row are said again (the region is emptied first).
export function announce(text) {
  if (!announceBox || !text) return;
  announceBox.textContent = "";
  clearTimeout(announce.timer);
  announce.timer = setTimeout(() => { announceBox.textContent = text; }, 30);
}

export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else if (key === "text") node.textContent = value;
    else if (key === "style") node.style.cssText = value;  // through the CSSOM: the page's CSP allows no inline style attribute
    else node.setAttribute(key, value === true ? "" : value);
  }
  for (const child of children.flat()) if (child != null) node.append(child);
  return node;
}

// Ask before something that cannot be taken back: a modal dialog with the question and two
// buttons; resolves to true for `yes`. Escape (or the other button) answers no.
export function confirmDialog(question, yes, no) {
  return new Promise((resolve) => {
    const dialog = el("dialog", { class: "confirm", id: "confirm", "aria-labelledby": "confirm-question" });
    const answer = (value) => { dialog.close(); dialog.remove(); resolve(value); };
    dialog.append(el("p", { id: "confirm-question", text: question }),
      el("div", { class: "actions" },
        el("button", { type: "button", id: "confirm-yes", class: "primary", text: yes, onclick: () => answer(true) }),
        el("button", { type: "button", id: "confirm-no", text: no, onclick: () => answer(false) })));
    dialog.addEventListener("cancel", (e) => { e.preventDefault(); answer(false); });
    document.body.append(dialog);
    dialog.showModal();
    dialog.querySelector("#confirm-no").focus();
  });
}

let catalogue = null;
export async function games() {
  if (!catalogue) catalogue = await api("/api/games");
  return catalogue;
}

export const cap = (s) => s.charAt(0).toUpperCase() + s.slice(1);

// A bot's seat in a new room (the search bot gets a budget a player does not wait for).
export const botSeat = (bot) => ({ kind: "bot", bot, ...(bot === "ismcts" ? { budget: { iterations: 400 } } : {}) });

// Make a room (POST /api/rooms), keep the seat token and the invite link's key in this
// browser; the room's link (its code, and its key after #).
export async function newRoom(body) {
  const room = await api("/api/rooms", body);
  localStorage.setItem(`cardtable.room.${room.code}`, room.token);
  localStorage.setItem(`cardtable.roomkey.${room.code}`, room.key);
  return room.link;
}
