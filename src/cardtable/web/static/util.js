// Small helpers shared by the pages: the JSON API, the message line, building elements.
const messageBox = document.getElementById("message");

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
